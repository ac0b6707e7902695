import { createHash, createHmac, randomBytes } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import { CONSOLE_AUTH_PATH, CONSOLE_PASSWORD_MAX, CONSOLE_PASSWORD_MIN, CONSOLE_PATH, type ConsoleRole, type ConsoleUserItem } from '../../contract/broker-console';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * The console's login (issue 36 item 2), by better-auth over the app's own database through its
 * Drizzle adapter: passwords hashed with scrypt (better-auth's own), database sessions in an
 * HttpOnly, SameSite=Strict cookie (Secure over https) scoped to /broker, and a TOTP second factor
 * (its two-factor plugin) that every account must set up before it can see anything. Sign-up is
 * off: an account exists only when `npm run broker -- users add` makes one, with a one-time setup
 * link (issueSetupLink). Attempts are limited in console.routes.ts, in the app's shared counters.
 */

/** How long a console session lasts without use, and how often its expiry moves on with use. */
export const CONSOLE_SESSION_SECONDS = 12 * 60 * 60;
const SESSION_UPDATE_SECONDS = 60 * 60;
/** How long a setup link stays good. */
export const SETUP_LINK_HOURS = 48;
/** The header the console's mount writes with the caller's address (what better-auth records on a session). */
export const CLIENT_ADDRESS_HEADER = 'x-safar-client-address';
const SETUP_PREFIX = 'console-setup:';
/** Wrong TOTP codes in a row before the account's second factor is locked for a while. */
export const CODE_FAILURES_BEFORE_LOCK = 5;

/** The console's secret: made at random once and kept in the database, so every instance shares it. */
export async function consoleSecret(db: Db): Promise<string> {
  await db.insert(t.consoleSecret).values({ id: 1, secret: randomBytes(32).toString('base64url') }).onConflictDoNothing();
  const [row] = await db.select().from(t.consoleSecret).where(eq(t.consoleSecret.id, 1));
  return row!.secret;
}

export interface ConsoleAuthOptions {
  /** PUBLIC_URL: better-auth's base URL and its one trusted origin. */
  publicUrl: string;
  secret: string;
}

/** better-auth as the console uses it. */
export function createConsoleAuth(db: Db, options: ConsoleAuthOptions) {
  const https = new URL(options.publicUrl).protocol === 'https:';
  return betterAuth({
    appName: 'Safar console',
    baseURL: options.publicUrl,
    basePath: CONSOLE_AUTH_PATH,
    secret: options.secret,
    trustedOrigins: [new URL(options.publicUrl).origin],
    telemetry: { enabled: false },
    logger: { disabled: true },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: t.consoleUsers, session: t.consoleSessions, account: t.consoleAccounts, verification: t.consoleVerifications, twoFactor: t.consoleTwoFactors },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: CONSOLE_PASSWORD_MIN, maxPasswordLength: CONSOLE_PASSWORD_MAX },
    user: { additionalFields: { role: { type: 'string', input: false, required: false, defaultValue: 'staff' } } },
    session: { expiresIn: CONSOLE_SESSION_SECONDS, updateAge: SESSION_UPDATE_SECONDS, cookieCache: { enabled: false } },
    // The app's own counters limit attempts per account and per address (console.routes.ts),
    // shared by every instance; better-auth's in-memory limiter would count per instance.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'safar-console',
      useSecureCookies: https,
      defaultCookieAttributes: { sameSite: 'strict', httpOnly: true, secure: https, path: CONSOLE_PATH },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      session: {
        create: {
          // A disabled account starts no session, whatever its password and code.
          before: async (session) => {
            const [user] = await db.select({ disabledAt: t.consoleUsers.disabledAt }).from(t.consoleUsers).where(eq(t.consoleUsers.id, session.userId));
            return user && user.disabledAt === null ? undefined : false;
          },
        },
      },
    },
    // Five wrong codes in a row, over any number of sign-ins, lock the second factor for 15 minutes.
    plugins: [twoFactor({ issuer: 'Safar console', accountLockout: { maxFailedAttempts: CODE_FAILURES_BEFORE_LOCK, durationSeconds: 15 * 60 } })],
  });
}

export type ConsoleAuth = ReturnType<typeof createConsoleAuth>;

/** Who a request's console session belongs to, or null (no cookie, an expired or deleted session). */
export interface ConsoleSession {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: ConsoleRole;
  twoFactorEnabled: boolean;
}

export async function readConsoleSession(auth: ConsoleAuth, headers: Headers): Promise<ConsoleSession | null> {
  const found = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!found) return null;
  const user = found.user as typeof found.user & { role?: string; twoFactorEnabled?: boolean | null };
  return {
    sessionId: found.session.id,
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role === 'admin' ? 'admin' : 'staff',
    twoFactorEnabled: user.twoFactorEnabled === true,
  };
}

/**
 * The CSRF token of a session: an HMAC of its id under the console's secret. The console reads it
 * from /broker/api/me and sends it back in a header with every change; a page of another site can
 * neither read it nor (SameSite=Strict) send the cookie, so it is a second lock.
 */
export function csrfToken(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionId}`).digest('base64url');
}

const digestOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An account a setup link or `users add` names that cannot be made as asked. */
export class ConsoleUserError extends Error {}


export async function listConsoleUsers(db: Db): Promise<ConsoleUserItem[]> {
  const rows = await db.select().from(t.consoleUsers).orderBy(t.consoleUsers.createdAt);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    two_factor_enabled: row.twoFactorEnabled,
    created: row.createdAt.toISOString(),
    disabled: row.disabledAt !== null,
  }));
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{2,}$/;

/**
 * Makes a console account with no password (so nobody can sign in to it yet) and answers a
 * one-time setup link for it. Only the link's digest is stored, so a copy of the database opens
 * no account. Adding an e-mail that exists but was never set up issues a new link (the old one
 * stops working); one that is set up is refused.
 */
export async function addConsoleUser(db: Db, input: { email: string; role: ConsoleRole }, publicUrl: string, now: number): Promise<{ user: ConsoleUserItem; setupUrl: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new ConsoleUserError(`"${input.email}" is not an e-mail address.`);
  const [existing] = await db.select().from(t.consoleUsers).where(eq(t.consoleUsers.email, email));
  if (existing) {
    const [password] = await db.select({ id: t.consoleAccounts.id }).from(t.consoleAccounts).where(eq(t.consoleAccounts.userId, existing.id));
    if (password) throw new ConsoleUserError(`${email} already has a console account.`);
  }
  const id = existing?.id ?? randomBytes(16).toString('base64url');
  if (existing) await db.update(t.consoleUsers).set({ role: input.role, updatedAt: new Date(now) }).where(eq(t.consoleUsers.id, id));
  else await db.insert(t.consoleUsers).values({ id, email, name: email.split('@')[0]!, role: input.role, createdAt: new Date(now), updatedAt: new Date(now) });
  const token = randomBytes(24).toString('base64url');
  await db.delete(t.consoleVerifications).where(eq(t.consoleVerifications.value, `${SETUP_PREFIX}${id}`));
  await db.insert(t.consoleVerifications).values({
    id: randomBytes(16).toString('base64url'),
    identifier: `${SETUP_PREFIX}${digestOf(token)}`,
    value: `${SETUP_PREFIX}${id}`,
    expiresAt: new Date(now + SETUP_LINK_HOURS * 3600_000),
  });
  const [user] = (await listConsoleUsers(db)).filter((item) => item.id === id);
  return { user: user!, setupUrl: `${publicUrl}${CONSOLE_PATH}/setup?token=${token}` };
}

/**
 * Spends a setup link: sets the account's password (hashed by better-auth's own scrypt) and
 * deletes the link in the same transaction, so a link works once even clicked twice at once.
 * Answers the account's e-mail, for the console to sign in with.
 */
export async function completeSetup(db: Db, auth: ConsoleAuth, token: string, password: string, now: number): Promise<string> {
  const context = await auth.$context;
  const hash = await context.password.hash(password);
  return db.transaction(async (tx) => {
    const [link] = await tx
      .delete(t.consoleVerifications)
      .where(eq(t.consoleVerifications.identifier, `${SETUP_PREFIX}${digestOf(token)}`))
      .returning();
    if (!link || link.expiresAt.getTime() <= now) throw new ConsoleUserError('This setup link is used or out of date: ask an admin for a new one.');
    const userId = link.value.slice(SETUP_PREFIX.length);
    const [user] = await tx.select().from(t.consoleUsers).where(eq(t.consoleUsers.id, userId));
    if (!user || user.disabledAt !== null) throw new ConsoleUserError('This setup link is used or out of date: ask an admin for a new one.');
    await tx.insert(t.consoleAccounts).values({ id: randomBytes(16).toString('base64url'), accountId: userId, providerId: 'credential', userId, password: hash, createdAt: new Date(now), updatedAt: new Date(now) });
    return user.email;
  });
}

/** Disables an account: its sessions end now and no new one starts (the session hook above). */
export async function disableConsoleUser(db: Db, id: string, now: number): Promise<{ before: { disabled: boolean }; after: { disabled: boolean } }> {
  const [user] = await db.select().from(t.consoleUsers).where(eq(t.consoleUsers.id, id));
  if (!user) throw new ConsoleUserError(`No console account has the id ${id}.`);
  await db.update(t.consoleUsers).set({ disabledAt: user.disabledAt ?? new Date(now), updatedAt: new Date(now) }).where(eq(t.consoleUsers.id, id));
  await db.delete(t.consoleSessions).where(eq(t.consoleSessions.userId, id));
  return { before: { disabled: user.disabledAt !== null }, after: { disabled: true } };
}

import { randomUUID } from 'node:crypto';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import { mailLog } from '../db/schema';
import { asDiskFull } from '../health/resource-health';

/**
 * The mail transport of RULINGS 22, through nodemailer, used by the outbox worker only (every
 * message a customer must receive is an outbox row first, mail/outbox.ts). With no SMTP_URL each
 * message is built as a complete RFC 822 message and written to the outbox directory as
 * `<queued at>-<kind>-<outbox id>.eml` (open it in any mail client); with SMTP_URL it is sent.
 * Every message is logged in mail_log under its Message-ID.
 *
 * Exactly once per message id, as far as the edge allows: a message id mail_log already holds
 * was accepted before (a crash lost the outbox's mark), so it is not sent again; the .eml file's
 * name comes from the outbox row alone and is created exclusively (written aside, then linked),
 * so a crash between the file and the log row cannot leave two files. Over SMTP the window left
 * is between the server's 250 and the mail_log row; a message sent again then carries the same
 * Message-ID, by which receiving servers and mail clients drop the duplicate.
 */

export interface OutgoingMail {
  /** What the message is for: share-page, policy, … (names the file and the log row). */
  kind: string;
  leadId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: Mail.Attachment[];
}

/** The outbox row a message is sent for: the same on every attempt. */
export interface MailIdentity {
  /** The RFC 5322 Message-ID of every attempt. */
  messageId: string;
  /** The outbox row's id: names the .eml file. */
  outboxId: number;
  /** When the row was queued: names the .eml file, so a second attempt names the same one. */
  queuedAt: Date;
}

export interface SentMail {
  logId: number;
  messageId: string;
  /** The .eml file written; null when sent over SMTP. */
  file: string | null;
  /** True when the message id had been accepted before and nothing was sent now. */
  repeated: boolean;
}

export interface Mailer {
  send(mail: OutgoingMail, identity: MailIdentity): Promise<SentMail>;
}

export type MailConfig = Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'outboxDir'>;

/** The edge of the world a mailer sends through (nodemailer's transporter); tests may inject one. */
export type MailTransport = { sendMail(options: Mail.Options): Promise<unknown> };

/** "20260315T100000Z": sorts by time and is a safe file name everywhere. */
const stamp = (now: number) => new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const safeKind = (kind: string) => kind.replace(/[^a-z0-9-]/gi, '-').slice(0, 40) || 'mail';

export function createMailer(db: Db, config: MailConfig, now: () => number = Date.now, injected?: MailTransport): Mailer {
  const toOutbox = !config.smtpUrl && !injected;
  const transport: MailTransport =
    injected ??
    (toOutbox
      ? nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
      : nodemailer.createTransport(config.smtpUrl));

  const logged = async (messageId: string) =>
    (await db.select({ id: mailLog.id, file: mailLog.file }).from(mailLog).where(eq(mailLog.messageId, messageId)))[0];

  return {
    async send(mail, identity) {
      const { messageId } = identity;
      const before = await logged(messageId);
      if (before) return { logId: before.id, messageId, file: before.file, repeated: true };
      const options: Mail.Options = {
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        date: new Date(now()),
        messageId,
      };
      const info = (await transport.sendMail(options)) as { message?: unknown };
      let file: string | null = null;
      if (toOutbox) {
        if (!Buffer.isBuffer(info.message)) throw new Error('mail: the stream transport did not return the message');
        file = path.join(config.outboxDir, `${stamp(identity.queuedAt.getTime())}-${safeKind(mail.kind)}-${identity.outboxId}.eml`);
        await writeOnce(file, info.message);
      }
      const [row] = await db
        .insert(mailLog)
        .values({ leadId: mail.leadId, kind: mail.kind, toAddress: mail.to, subject: mail.subject, file, messageId, createdAt: new Date(now()) })
        .onConflictDoNothing({ target: mailLog.messageId })
        .returning({ id: mailLog.id });
      // No row: another worker logged the same message id meanwhile (its file is the one kept).
      const logId = row?.id ?? (await logged(messageId))!.id;
      return { logId, messageId, file, repeated: !row };
    },
  };
}

/**
 * Creates `file` with `bytes` unless it exists: written whole beside it, then hard-linked to its
 * name, which fails when the name exists (EEXIST: an earlier attempt wrote it) and is atomic, so
 * no reader and no later attempt ever sees half a message. A full disk (issue 34 item 3) throws a
 * DiskFullError and leaves nothing: the half-written file aside is removed, the name never made,
 * and the outbox row stays pending for the next attempt.
 */
async function writeOnce(file: string, bytes: Buffer): Promise<void> {
  const aside = `${file}.${randomUUID()}.partial`;
  try {
    // Owner-only whatever the umask (issue 33 part 4): a policy e-mail carries the travellers'
    // names, birth dates and passports, and not every caller runs under main.ts's umask.
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(aside, bytes, { flag: 'wx', mode: 0o600 });
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw asDiskFull(error);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

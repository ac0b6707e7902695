import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import { mailLog } from '../db/schema';

/**
 * The mail transport of RULINGS 22, through nodemailer. With no SMTP_URL each message is built
 * as a complete RFC 822 message and written to the outbox as `<timestamp>-<kind>-<id>.eml`
 * (open it in any mail client); with SMTP_URL it is sent. Every message is logged in mail_log.
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
  /** The RFC 5322 Message-ID, e.g. the outbox row's, the same on every attempt; nodemailer's own when absent. */
  messageId?: string;
}

export interface SentMail {
  logId: number;
  messageId: string;
  /** The .eml file written; null when sent over SMTP. */
  file: string | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
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

  return {
    async send(mail) {
      const options: Mail.Options = {
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        date: new Date(now()),
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
      };
      const info = (await transport.sendMail(options)) as { messageId: string; message?: unknown };
      // The row is written first so its id names the file; a failed write rolls the row back.
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(mailLog)
          .values({ leadId: mail.leadId, kind: mail.kind, toAddress: mail.to, subject: mail.subject, createdAt: new Date(now()) })
          .returning({ id: mailLog.id });
        const logId = row!.id;
        if (!toOutbox) return { logId, messageId: info.messageId, file: null };
        if (!Buffer.isBuffer(info.message)) throw new Error('mail: the stream transport did not return the message');
        await mkdir(config.outboxDir, { recursive: true });
        const file = path.join(config.outboxDir, `${stamp(now())}-${safeKind(mail.kind)}-${logId}.eml`);
        await writeFile(file, info.message);
        await tx.update(mailLog).set({ file }).where(eq(mailLog.id, logId));
        return { logId, messageId: info.messageId, file };
      });
    },
  };
}

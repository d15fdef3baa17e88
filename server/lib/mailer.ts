/**
 * Outgoing email. With SMTP_URL, nodemailer sends over SMTP. Without it, each message is
 * written to DATA_DIR/outbox/ as an .eml file (open it to follow the link) and logged
 * without its body, because bodies carry one-time tokens, and with the address masked. The file is plain 8-bit text, so
 * that a link is one line whether it is opened in a mail app or printed in a terminal:
 * nodemailer encodes any line over 76 characters as quoted-printable, which broke the
 * confirmation link over two lines and wrote each "=" as "=3D" (seen by a newcomer who
 * copied it from `cat`).
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { maskEmail } from "./logger.ts";

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };
type Log = { info(obj: object, msg: string): void };

export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Log;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.log.info({ to: maskEmail(mail.to), subject: mail.subject }, "email sent");
      },
    };
  }
  const outbox = join(options.dataDir, "outbox");
  return {
    async send(mail) {
      const message = outboxMessage(options.from, mail, new Date());
      // The files hold live one-time tokens: only Warden's own user may read them.
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      await chmod(outbox, 0o700);
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      // Named with the masked address, as the log line names the file: no full emails in logs.
      const name = maskEmail(mail.to).replace(/[^a-z0-9@.+-]/gi, "_");
      const file = join(outbox, `${stamp}-${name}.eml`);
      await writeFile(file, message, { mode: 0o600 });
      options.log.info(
        { to: maskEmail(mail.to), subject: mail.subject, file },
        "email written to the outbox (no SMTP_URL set)",
      );
    },
  };
}

/** A header's value, RFC 2047-encoded when it is not plain ASCII. */
const headerValue = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString("base64")}?=`;

/** The outbox's copy of a message: headers, then the text as it is (8bit). */
export function outboxMessage(from: string, mail: Mail, date: Date): string {
  for (const value of [from, mail.to, mail.subject]) {
    if (/[\r\n]/.test(value)) throw new Error("an email header holds a line break");
  }
  return [
    `From: ${from}`,
    `To: ${mail.to}`,
    `Subject: ${headerValue(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    mail.text.replace(/\r?\n/g, "\r\n"),
    "",
  ].join("\r\n");
}

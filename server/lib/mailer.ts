/**
 * Outgoing email. With SMTP_URL, nodemailer sends over SMTP. Without it, each message is
 * written to DATA_DIR/outbox/ as an .eml file (open it to follow the link) and logged
 * without its body, because bodies carry one-time tokens.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";

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
        options.log.info({ to: mail.to, subject: mail.subject }, "email sent");
      },
    };
  }
  const outbox = join(options.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      // The files hold live one-time tokens: only Warden's own user may read them.
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      await chmod(outbox, 0o700);
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = join(outbox, `${stamp}-${mail.to.replace(/[^a-z0-9@.+-]/gi, "_")}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.log.info(
        { to: mail.to, subject: mail.subject, file },
        "email written to the outbox (no SMTP_URL set)",
      );
    },
  };
}

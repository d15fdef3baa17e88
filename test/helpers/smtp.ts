/** A real SMTP server on a free local port that keeps every message it receives. */
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CapturedMail = { to: string; subject: string; text: string };

export async function startSmtpCapture() {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail: ParsedMail) => {
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          messages.push({ to: to ?? "", subject: mail.subject ?? "", text: mail.text ?? "" });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The newest message to `to` whose subject contains `subject`. */
    async waitFor(to: string, subject: string, timeoutMs = 5000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages
          .filter((m) => m.to.includes(to) && m.subject.includes(subject))
          .at(-1);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no email "${subject}" to ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message whose path is `path`. */
export function linkIn(mail: CapturedMail, path: string): URL {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((href) => new URL(href).pathname === path);
  if (!match) throw new Error(`no ${path} link in "${mail.subject}"`);
  return new URL(match);
}

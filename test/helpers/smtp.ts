/** A real SMTP server on a free local port that keeps every message it receives. */
import { SMTPServer } from "smtp-server";

export type CapturedMail = { to: string; subject: string; text: string };

export async function startSmtpCapture() {
  const messages: CapturedMail[] = [];
  /** Faults a test can switch on: answer each message this late, or refuse the next n. */
  const faults = { delayMs: 0, refuseNext: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        setTimeout(() => {
          if (faults.refuseNext > 0) {
            faults.refuseNext--;
            return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
          }
          messages.push(parseMessage(Buffer.concat(chunks).toString("utf8")));
          callback();
        }, faults.delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    faults,
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

/**
 * Reads the headers and the plain-text body of one message as nodemailer writes it
 * (a single text part, 7bit, quoted-printable or base64).
 */
export function parseMessage(raw: string): CapturedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    text = Buffer.from(bytes, "latin1").toString("utf8");
  } else if (encoding === "base64") {
    text = Buffer.from(body, "base64").toString("utf8");
  }
  return { to: header("To"), subject: header("Subject"), text: text.replace(/\r\n/g, "\n") };
}

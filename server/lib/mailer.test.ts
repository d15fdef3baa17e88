import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMailer, outboxMessage } from "./mailer.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("mailer without SMTP_URL", () => {
  it("writes each message to DATA_DIR/outbox readable by its owner only, and logs no full address", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-mailer-"));
    dirs.push(dataDir);
    const logged: object[] = [];
    const mailer = createMailer({
      from: "Warden <no-reply@localhost>",
      dataDir,
      log: { info: (obj) => logged.push(obj) },
    });
    await mailer.send({ to: "owner@example.com", subject: "Reset", text: "token abc" });

    const outbox = join(dataDir, "outbox");
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    const [name] = await readdir(outbox);
    expect(name).toMatch(/-o___@example\.com\.eml$/);
    const file = join(outbox, name ?? "");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain("token abc");
    expect(await readFile(file, "utf8")).toContain("To: owner@example.com");
    expect(JSON.stringify(logged)).not.toContain("token abc");
    expect(JSON.stringify(logged)).not.toContain("owner@");
    expect(JSON.stringify(logged)).toContain("o***@example.com");
  });
});

describe("outboxMessage", () => {
  const from = "Warden <no-reply@localhost>";
  const date = new Date("2026-11-24T20:46:02Z");

  it("keeps a long link on one line and every = as it is, so it can be copied from a terminal", () => {
    const link = `http://localhost:3000/confirm-email?tokenHash=${"a".repeat(60)}&type=signup&email=newcomer%40example.com`;
    const text = `Confirm your email address:\n${link}\n\nThe link is valid for 24 hours.`;
    const message = outboxMessage(
      from,
      { to: "newcomer@example.com", subject: "Confirm", text },
      date,
    );
    expect(message.split("\r\n")).toEqual([
      "From: Warden <no-reply@localhost>",
      "To: newcomer@example.com",
      "Subject: Confirm",
      "Date: Tue, 24 Nov 2026 20:46:02 GMT",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      "Confirm your email address:",
      link,
      "",
      "The link is valid for 24 hours.",
      "",
    ]);
  });

  it("encodes a subject that is not ASCII, and refuses a header with a line break", () => {
    const message = outboxMessage(
      from,
      { to: "a@example.com", subject: "Bienvenue à Warden", text: "" },
      date,
    );
    expect(message).toContain(
      `Subject: =?UTF-8?B?${Buffer.from("Bienvenue à Warden").toString("base64")}?=`,
    );
    expect(() =>
      outboxMessage(
        from,
        { to: "a@example.com\r\nBcc: x@example.com", subject: "Hi", text: "" },
        date,
      ),
    ).toThrow(/line break/);
  });
});

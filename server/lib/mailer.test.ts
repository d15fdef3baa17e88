import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMailer } from "./mailer.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("mailer without SMTP_URL", () => {
  it("writes each message to DATA_DIR/outbox readable by its owner only", async () => {
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
    expect(name).toMatch(/owner@example\.com\.eml$/);
    const file = join(outbox, name ?? "");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain("token abc");
    expect(JSON.stringify(logged)).not.toContain("token abc");
  });
});

import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { chooseLogFormat, maskEmail, newRequestId, prettyMessage, REDACT } from "./logger.ts";

describe("chooseLogFormat", () => {
  it.each([
    [undefined, true, "pretty"],
    [undefined, false, "json"],
    ["json", true, "json"],
    ["pretty", false, "pretty"],
  ] as const)("LOG_FORMAT %s on a terminal: %s → %s", (setting, terminal, format) => {
    expect(chooseLogFormat(setting, terminal)).toBe(format);
  });
});

describe("maskEmail", () => {
  it.each([
    ["alice@example.com", "a***@example.com"],
    ["a@b.co", "a***@b.co"],
    ["@example.com", "***@example.com"],
    ["not an address", "***"],
    ["x@y@example.com", "x***@example.com"],
  ])("%s → %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});

describe("prettyMessage", () => {
  it.each([
    [
      {
        reqId: "ab12",
        req: { method: "GET", url: "/healthz" },
        res: { statusCode: 200 },
        responseTime: 3.4,
      },
      "[ab12] GET /healthz 200 3 ms",
    ],
    [{ reqId: "ab12", msg: "procedure failed" }, "[ab12] procedure failed"],
    [{ msg: "Warden is ready" }, "Warden is ready"],
  ])("%o reads %s", (line, message) => {
    expect(prettyMessage(line, "msg")).toBe(message);
  });
});

describe("REDACT", () => {
  it("censors secret fields and masks emails, at the top and one level down", () => {
    let out = "";
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const { log } = Fastify({ logger: { redact: REDACT, stream: sink } });
    log.info(
      {
        email: "bob@example.com",
        password: "hunter2 hunter2",
        body: { stripe_secret: "sk_test_123secret", contact_email: "shop@example.com" },
        to: "carol@example.com",
        accountId: "acct_1",
      },
      "x",
    );
    const line = JSON.parse(out);
    expect(line).toMatchObject({
      email: "b***@example.com",
      password: "[redacted]",
      body: { stripe_secret: "[redacted]", contact_email: "s***@example.com" },
      to: "c***@example.com",
      accountId: "acct_1",
    });
    expect(out).not.toMatch(/hunter2|sk_test_123|bob@|shop@|carol@/);
  });
});

describe("newRequestId", () => {
  it("gives 16 hex characters, none twice, across refills of its random pool", () => {
    // 4 KiB of random bytes serve 512 ids: 2,000 cross three refills.
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

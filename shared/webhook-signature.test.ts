import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signatureHeader, verifyWebhook } from "./webhook-signature.ts";

const SECRET = "whsec_test";
const BODY = '{"id":"evt_1","type":"review.approved"}';
const T = 1_764_000_000;

describe("webhook signature", () => {
  it("is HMAC-SHA256 of timestamp.body, as documented", async () => {
    const expected = createHmac("sha256", SECRET).update(`${T}.${BODY}`).digest("hex");
    expect(await signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
  });

  it.each([
    ["a good signature", BODY, SECRET, T + 10, { ok: true, timestamp: T }],
    ["a changed body", `${BODY} `, SECRET, T, { ok: false, reason: "signature does not match" }],
    ["another secret", BODY, "whsec_other", T, { ok: false, reason: "signature does not match" }],
    [
      "a replay after 5 minutes",
      BODY,
      SECRET,
      T + 301,
      { ok: false, reason: "timestamp outside the tolerance" },
    ],
  ])("%s", async (_name, body, secret, now, result) => {
    const header = await signatureHeader(SECRET, T, BODY);
    expect(await verifyWebhook(body, header, secret, { now })).toEqual(result);
  });

  it("refuses a missing or malformed header", async () => {
    expect(await verifyWebhook(BODY, undefined, SECRET)).toEqual({
      ok: false,
      reason: "no Warden-Signature header",
    });
    expect(await verifyWebhook(BODY, "v1=abc", SECRET)).toEqual({
      ok: false,
      reason: "no timestamp in the header",
    });
  });
});

/**
 * "Test on history" counts what the dashboard counts, over real HTTP on both databases:
 * charges on each side of the window's first UTC midnight, failed ones (declined, blocked by
 * Radar), a refunded one and a recent one; the dashboard's "Charges" and the backtest's
 * total over 30 days must be the same number (it counted 32 where the dashboard showed 34:
 * the backtest left out failed charges and tried a rolling 30 × 24 hours). And the job says
 * when it ran and with which saved settings, and that it is stale once they are saved again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacktestJob } from "../../shared/schemas/backtest.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { backtest, pageSettings } from "../helpers/backtest.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";

const DAY = 86_400;

describe.each(DB_KINDS)("Test on history and the dashboard (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  // Noon UTC today: the window's first day starts 29 days before today's midnight.
  const today = Math.floor(Date.now() / 1000 / DAY);
  const now = today * DAY + 12 * 3600;
  const firstMidnight = (today - 29) * DAY;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: testClock(now * 1000) });
    merchant = await signedInMerchant(t, `history-count-${kind}@example.com`);
    const { path, webhookSecret } = await connectStripe(merchant);
    const send = async (type: string, charge: ReturnType<typeof buildCharge>) =>
      expect(
        (
          await deliver(
            t,
            path,
            buildEvent(type, charge, { created: charge.created }),
            webhookSecret,
          )
        ).status,
      ).toBe(200);
    // Outside: one second before the first midnight (inside a rolling 30 × 24 h window).
    await send("charge.succeeded", buildCharge({ created: firstMidnight - 1 }));
    // Inside: exactly at the first midnight, a declined and a Radar-blocked charge (failed),
    // a refunded one, and one a minute old.
    await send("charge.succeeded", buildCharge({ created: firstMidnight }));
    await send(
      "charge.failed",
      buildCharge({ created: now - 5 * DAY, status: "failed", outcomeType: "issuer_declined" }),
    );
    await send(
      "charge.failed",
      buildCharge({
        created: now - 4 * DAY,
        status: "failed",
        outcomeType: "blocked",
        riskLevel: "highest",
        riskScore: 91,
      }),
    );
    await send(
      "charge.refunded",
      buildCharge({ created: now - 3 * DAY, refunded: true, amountRefunded: 4900 }),
    );
    await send("charge.succeeded", buildCharge({ created: now - 60 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts the same charges as the dashboard's Charges, the failed ones counted but not judged", async () => {
    const summary = await merchant.browser.query<{ charges: number; since: string }>(
      "dashboard.summary",
    );
    expect(summary).toMatchObject({ ok: true, data: { charges: 5 } });
    const result = await backtest(merchant, { ...(await pageSettings(merchant)), days: 30 });
    expect(result.charges).toMatchObject({ total: 5, notJudged: 2 });
    expect(summary.ok && result.charges.total).toBe(summary.ok && summary.data.charges);
    // The same first day as the dashboard's.
    expect(result.from).toBe(new Date(firstMidnight * 1000).toISOString());
    expect(summary.ok && summary.data.since).toBe(result.from.slice(0, 10));
  });

  it("says when it ran and with which saved settings, and that it is stale once they are saved again", async () => {
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_high_risk: { action: "review" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const savedAt = await t.prisma.ruleParameterSettings.findUniqueOrThrow({
      where: { accountId: merchant.accountId },
    });
    await backtest(merchant, { ...(await pageSettings(merchant)), days: 30 });
    const status = async () => {
      const polled = await merchant.browser.query<BacktestJob>("backtest.status");
      if (!polled.ok || !polled.data) throw new Error(JSON.stringify(polled));
      return polled.data;
    };
    const fresh = await status();
    expect(fresh).toMatchObject({
      status: "done",
      settingsChanged: false,
      settingsSavedAt: savedAt.updatedAt.toISOString(),
      finishedAt: expect.any(String),
    });

    // Saved again (a switch turned on): the result no longer says what the settings do.
    const rules = await merchant.api.json<Record<string, unknown>>("/api/rules");
    const saved = await merchant.api.json("/api/rules", {
      method: "PUT",
      body: { ...rules.body, rule_ip: true },
    });
    expect(saved.status).toBe(200);
    expect(await status()).toMatchObject({ status: "done", settingsChanged: true });

    // Run again: fresh once more.
    await backtest(merchant, { ...(await pageSettings(merchant)), days: 30 });
    expect(await status()).toMatchObject({ settingsChanged: false });
  });
});

/** The Rules page's side of "Test on history" for tests: its settings, and a backtest run to the end. */
import { expect } from "vitest";
import type { BacktestJob, BacktestResult } from "../../shared/schemas/backtest.ts";
import type { Merchant } from "./merchants.ts";

/** The settings as the Rules page holds them: what GET returns, saved or edited. */
export async function pageSettings(merchant: Merchant) {
  const get = async (path: string) => (await merchant.api.json<Record<string, unknown>>(path)).body;
  return {
    rules: await get("/api/rules"),
    templates: await get("/api/templates"),
    rule_settings: await get("/api/rule-settings"),
    blocklist: await get("/api/blocklist"),
  };
}

/** Starts a backtest over tRPC and polls it until done. */
export async function backtest(merchant: Merchant, input: unknown): Promise<BacktestResult> {
  const started = await merchant.browser.mutate<BacktestJob>("backtest.start", input);
  expect(started, JSON.stringify(started)).toMatchObject({ ok: true });
  for (let i = 0; i < 400; i++) {
    const polled = await merchant.browser.query<BacktestJob>("backtest.status");
    if (!polled.ok) throw new Error(JSON.stringify(polled));
    const job = polled.data;
    if (job?.status === "done" && job.result) {
      expect(job.processed).toBe(job.total);
      return job.result;
    }
    expect(job?.status).toBe("running");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the backtest did not finish");
}

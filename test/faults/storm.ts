/** Webhook storms for the fault suite: events, a seeded shuffle, signed delivery with retries. */
import Stripe from "stripe";
import { buildCharge, buildDispute, buildEvent } from "../fixtures/stripe.ts";

const signer = new Stripe("sk_test_signing_only", { telemetry: false });

export function shuffle<T>(items: T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * About `total` events over charges: each succeeds, then some are refunded, disputed, or
 * both, each later event newer than the one before. Returned in delivery order per charge.
 */
export function stormEvents(total: number, rand: () => number, prefix: string): Stripe.Event[][] {
  const perCharge: Stripe.Event[][] = [];
  const base = Math.floor(Date.now() / 1000) - 86_400;
  let count = 0;
  for (let i = 0; count < total; i++) {
    const id = `ch_${prefix}${String(i).padStart(7, "0")}`;
    const created = base + i;
    const amount = 500 + Math.floor(rand() * 20_000);
    const charge = buildCharge({ id, created, amount, riskScore: Math.floor(rand() * 60) });
    const events = [buildEvent("charge.succeeded", charge, { created })];
    if (rand() < 0.25) {
      const refunded = buildCharge({
        id,
        created,
        amount,
        refunded: true,
        amountRefunded: amount,
        riskScore: charge.outcome?.risk_score ?? 0,
      });
      events.push(buildEvent("charge.refunded", refunded, { created: created + 60 }));
    }
    if (rand() < 0.15) {
      events.push(
        buildEvent("charge.dispute.created", buildDispute(charge), { created: created + 120 }),
      );
    }
    perCharge.push(events.slice(0, total - count));
    count += Math.min(events.length, total - count);
  }
  return perCharge;
}

/** POSTs one signed event; the status, or 0 when the connection failed (server down). */
export async function post(baseUrl: string, path: string, event: Stripe.Event, secret: string) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Delivers every job `concurrency` at a time and, as Stripe does, delivers again each one not
 * answered 2xx (in later rounds) until all are; returns how many deliveries were retried.
 */
export async function deliverAll(
  jobs: (() => Promise<number>)[],
  concurrency: number,
  onProgress?: (done: number) => Promise<void> | void,
): Promise<{ deliveries: number; retried: number }> {
  let pending = jobs;
  let deliveries = 0;
  let retried = 0;
  for (let round = 0; pending.length > 0; round++) {
    if (round > 30) throw new Error(`${pending.length} events never got a 2xx`);
    if (round > 0) await new Promise((r) => setTimeout(r, 500));
    const failed: (() => Promise<number>)[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const job = pending[next++] as () => Promise<number>;
        const status = await job();
        deliveries += 1;
        if (round === 0) await onProgress?.(next);
        if (status < 200 || status >= 300) failed.push(job);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    retried += failed.length;
    pending = failed;
  }
  return { deliveries, retried };
}

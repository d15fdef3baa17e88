/**
 * Stripe webhook traffic for `npm run bench:webhooks`: an endless stream of signed events over
 * many charges, in the order Stripe sends them for a busy shop. Every charge succeeds; some are
 * then updated, refunded, warned about (an early fraud warning, actionable) or disputed, each
 * later event a little newer and sent a while after the charge, so other charges' events come
 * in between. A few charges have a high risk score, so the rules refund them. The stream
 * remembers, per charge, the newest sent event's time: after the load, every stored row must
 * show it (every event stored and applied, none moved a charge backwards).
 */
import Stripe from "stripe";
import { seededRandom } from "../../lib/seeded-random.ts";
import { type ChargeOptions, chargeSucceeded } from "./traffic-charge.ts";

const signer = new Stripe("sk_bench_signing_only", { telemetry: false });

type Later = { due: number; chargeId: string; event: () => Stripe.Event };

export function webhookStream(secret: string, prefix: string, seed = 1) {
  const random = seededRandom(seed);
  const pending: Later[] = [];
  /** chargeId → event.created of its newest event. */
  const newest = new Map<string, number>();
  const types: Record<string, number> = {};
  const base = Math.floor(Date.now() / 1000) - 3 * 86_400;
  let sent = 0;
  let charges = 0;

  /** A new charge's succeeded event; its later events wait in `pending`. */
  function newCharge(): { chargeId: string; event: Stripe.Event } {
    const i = charges++;
    const id = `ch_${prefix}${i.toString(36).padStart(8, "0")}`;
    const created = base + i;
    const risky = random() < 0.03;
    const options: ChargeOptions = {
      id,
      created,
      amount: 500 + Math.floor(random() * 20_000),
      riskScore: risky ? 80 + Math.floor(random() * 20) : Math.floor(random() * 50),
      riskLevel: risky ? ("highest" as const) : ("normal" as const),
      email: `buyer${Math.floor(random() * 20_000)}@example.com`,
      last4: String(1000 + Math.floor(random() * 9000)),
    };
    const later = (due: number, event: () => Stripe.Event) =>
      pending.push({ due: sent + due, chargeId: id, event });
    return { chargeId: id, event: chargeSucceeded(random, options, later) };
  }

  /** The next event's body. */
  function nextPayload(): string {
    const dueIndex = pending.findIndex((p) => p.due <= sent);
    const later = dueIndex >= 0 ? (pending.splice(dueIndex, 1)[0] as Later) : null;
    const { chargeId, event } = later
      ? { chargeId: later.chargeId, event: later.event() }
      : newCharge();
    // A unique id per event: the builders' 32-bit hash ids collide within ~100,000 events,
    // and Warden rightly stores a repeated id once (a run lost one "charge" that way).
    event.id = `evt_${prefix}${sent.toString(36).padStart(8, "0")}`;
    newest.set(chargeId, Math.max(newest.get(chargeId) ?? 0, event.created));
    sent++;
    types[event.type] = (types[event.type] ?? 0) + 1;
    return JSON.stringify(event);
  }

  const sign = (payload: string) => ({
    payload,
    signature: signer.webhooks.generateTestHeaderString({ payload, secret }),
  });

  return {
    /** The next event's body and its Stripe-Signature header. */
    next: () => sign(nextPayload()),
    /**
     * The next `count` events' bodies, built now, each signed as it is sent (the signature
     * holds the time): building an event costs the load generator several times what signing
     * does, and on a shared machine that CPU is taken from the server under test. Stripe builds
     * and signs on its own machines.
     */
    prebuilt(count: number): () => { payload: string; signature: string } {
      const payloads = Array.from({ length: count }, nextPayload);
      let at = 0;
      return () => sign(payloads[at++ % count] as string);
    },
    newest,
    types,
  };
}

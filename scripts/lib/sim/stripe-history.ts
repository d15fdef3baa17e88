/**
 * A simulated person's Stripe history, reaching Warden the way Stripe sends it: signed webhook
 * events (charge.succeeded, then charge.refunded or charge.dispute.created) posted to the
 * merchant's Stripe endpoint. Each charge is dated days before the screening that carries it;
 * the signature is made now (Warden checks its age against the wall clock, as Stripe's SDK does).
 */
import Stripe from "stripe";
import {
  buildCharge,
  buildDispute,
  buildEvent,
} from "../../../server/modules/demo/stripe-objects.ts";

const DAY_SECONDS = 86_400;

/** One past charge: made `daysAgo` days before the screening, maybe refunded or disputed later. */
export type PastCharge = {
  id: string;
  email: string;
  /** The card's fingerprint: the same value the merchant's backend sends as card_fingerprint. */
  card: string;
  amount: number;
  daysAgo: number;
  /** Cents refunded (a partial refund counts as a refund), `after` days after the charge. */
  refund?: { amount: number; after: number };
  /** A chargeback filed `after` days after the charge. */
  dispute?: { reason: string; after: number };
};

/** Where a merchant's Stripe events go, and the secret they are signed with. */
export type StripeWebhook = { path: string; secret: string };

const signer = new Stripe("sk_sim_signing_only", { telemetry: false });

function chargeOf(past: PastCharge, created: number, amountRefunded = 0): Stripe.Charge {
  const charge = buildCharge({
    id: past.id,
    created,
    amount: past.amount,
    email: past.email,
    amountRefunded,
    refunded: amountRefunded >= past.amount,
  });
  const card = charge.payment_method_details?.card;
  if (card) card.fingerprint = past.card;
  return charge;
}

/** The charge's events in the order Stripe sends them; `now` is the screening's time in seconds. */
export function stripeEventsOf(past: PastCharge, now: number): Stripe.Event[] {
  const created = now - Math.round(past.daysAgo * DAY_SECONDS);
  const charge = chargeOf(past, created);
  const events = [buildEvent("charge.succeeded", charge, { id: `evt_${past.id}_0`, created })];
  if (past.refund) {
    const at = created + Math.round(past.refund.after * DAY_SECONDS);
    const refunded = chargeOf(past, created, past.refund.amount);
    events.push(buildEvent("charge.refunded", refunded, { id: `evt_${past.id}_r`, created: at }));
  }
  if (past.dispute) {
    const at = created + Math.round(past.dispute.after * DAY_SECONDS);
    const dispute = { ...buildDispute(charge, at), reason: past.dispute.reason } as Stripe.Dispute;
    events.push(
      buildEvent("charge.dispute.created", dispute, { id: `evt_${past.id}_d`, created: at }),
    );
  }
  return events;
}

/** Posts each past charge's events, signed with the merchant's secret; throws unless applied. */
export async function deliverHistory(
  base: string,
  webhook: StripeWebhook,
  history: readonly PastCharge[],
  now: number,
): Promise<void> {
  for (const event of history.flatMap((past) => stripeEventsOf(past, now))) {
    const payload = JSON.stringify(event);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
    const response = await fetch(`${base}${webhook.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    const text = await response.text();
    if (!response.ok || (JSON.parse(text) as { status?: string }).status !== "applied")
      throw new Error(`Stripe ${event.type} ${event.id}: HTTP ${response.status} ${text}`);
  }
}

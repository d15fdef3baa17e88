/** One charge of the webhook traffic: its succeeded event, and the events that follow it. */
import type Stripe from "stripe";
import {
  buildCharge,
  buildDispute,
  buildEarlyFraudWarning,
  buildEvent,
} from "../../../server/modules/demo/stripe-objects.ts";

export type ChargeOptions = NonNullable<Parameters<typeof buildCharge>[0]> & {
  id: string;
  created: number;
};

/**
 * The charge's succeeded event; `later(due, event)` queues each later one (updated 30 %, early
 * fraud warning 2 %, refunded 10 %, disputed 1 %), due 20 to 220 events from now, each a
 * little newer than the one before.
 */
export function chargeSucceeded(
  random: () => number,
  options: ChargeOptions,
  later: (due: number, event: () => Stripe.Event) => void,
): Stripe.Event {
  const { created } = options;
  const charge = buildCharge(options);
  let at = created;
  const after = (gap: number, make: (created: number) => Stripe.Event) => {
    at += gap;
    const when = at;
    later(20 + Math.floor(random() * 200), () => make(when));
  };
  if (random() < 0.3) {
    after(5, (t) =>
      buildEvent("charge.updated", buildCharge({ ...options, name: "Jane Q. Doe" }), {
        created: t,
        previous: { billing_details: { name: "Jane Doe" } },
      }),
    );
  }
  if (random() < 0.02) {
    after(3600, (t) =>
      buildEvent("radar.early_fraud_warning.created", buildEarlyFraudWarning(charge), {
        created: t,
      }),
    );
  }
  if (random() < 0.1) {
    after(600, (t) =>
      buildEvent("charge.refunded", buildCharge({ ...options, refunded: true }), { created: t }),
    );
  }
  if (random() < 0.01) {
    after(86_400, (t) =>
      buildEvent("charge.dispute.created", buildDispute(charge, t), { created: t }),
    );
  }
  return buildEvent("charge.succeeded", charge, { created });
}

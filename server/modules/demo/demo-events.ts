/**
 * The demo bundle: a realistic month of one merchant's Stripe events, sent through the real
 * webhook path by `npm run demo` and the "Load demo data" button of an empty local dashboard.
 * Every charge is marked as a demo (test mode, metadata warden_demo), so what the rules decide
 * about it is simulated instead of sent to Stripe.
 */
import type Stripe from "stripe";
import {
  buildCharge,
  buildDispute,
  buildEarlyFraudWarning,
  buildEvent,
  type ChargeOptions,
  stripeId,
} from "./stripe-objects.ts";

/** The charge metadata that marks a demo charge; with livemode false its actions are simulated. */
export const DEMO_METADATA = { warden_demo: "true" } as const;

const demoCharge = (options: Parameters<typeof buildCharge>[0]) =>
  buildCharge({ ...options, livemode: false, metadata: DEMO_METADATA });

const DAY = 86_400;
const NAMES = [
  "Ava Martin",
  "Noah Kim",
  "Mia Rossi",
  "Liam Chen",
  "Emma Novak",
  "Lucas Silva",
  "Zoe Adams",
  "Ethan Park",
];
const DOMAINS = ["gmail.com", "outlook.com", "acme.io", "icloud.com", "fastmail.com", "proton.me"];

/**
 * A bundle that shows the product at work: ordinary charges over two weeks, Radar's
 * elevated and blocked ones, and one charge for each Standard rule to act on (with the
 * merchant's rules on, a 70 threshold, NG blocked), a dispute, a refund and a JPY sale.
 */
export function demoEvents(now = Math.floor(Date.now() / 1000)): Stripe.Event[] {
  const events: Stripe.Event[] = [];
  const add = (type: string, object: { id: string }, created: number) =>
    events.push(buildEvent(type, object, { created }));
  const demoId = (n: number) => stripeId("ch_demo", `${now}:${n}`);
  let n = 0;
  /** A demo charge under the next id, and its charge.succeeded (charge.failed) event then. */
  const sale = (options: Omit<ChargeOptions, "id"> & { created: number }) => {
    const charge = demoCharge({ id: demoId(n++), ...options });
    add(
      options.status === "failed" ? "charge.failed" : "charge.succeeded",
      charge,
      options.created,
    );
    return charge;
  };
  for (let i = 0; i < 24; i++) {
    const created = now - Math.floor(((i * 13) % 14) * DAY + ((i * 3779) % DAY));
    const name = NAMES[i % NAMES.length] ?? "Jane Doe";
    const email = `${name.toLowerCase().replace(" ", ".")}@${DOMAINS[i % DOMAINS.length]}`;
    sale({
      amount: 1900 + (i % 5) * 1000,
      created,
      email,
      name,
      riskScore: 5 + ((i * 7) % 40),
      last4: String(4242 + i).slice(-4),
    });
  }
  const t = (daysAgo: number) => now - daysAgo * DAY - 3600;
  sale({
    amount: 12900,
    created: t(1),
    riskLevel: "elevated",
    riskScore: 64,
    email: "m.ivanova@yandex.ru",
    name: "Maria Ivanova",
    cardCountry: "RU",
  });
  sale({
    amount: 49900,
    created: t(2),
    status: "failed",
    outcomeType: "blocked",
    riskLevel: "highest",
    riskScore: 91,
    email: "fast.buyer@gmail.com",
    cardCountry: "US",
  });
  sale({
    amount: 29900,
    created: t(0),
    riskLevel: "elevated",
    riskScore: 82,
    email: "promo.hunter@outlook.com",
    name: "Sam Hunter",
  });
  sale({
    amount: 9900,
    created: t(3),
    riskScore: 44,
    cardCountry: "NG",
    email: "olu.ade@gmail.com",
    name: "Olu Ade",
  });
  sale({
    amount: 900,
    created: t(1) + 600,
    riskScore: 35,
    email: "trial4trial@mailinator.com",
    name: "Free Trial",
  });
  const warned = sale({
    amount: 15900,
    created: t(5),
    riskScore: 41,
    email: "card.owner@icloud.com",
    name: "Card Owner",
  });
  add("radar.early_fraud_warning.created", buildEarlyFraudWarning(warned, { created: t(4) }), t(4));
  const disputed = sale({
    amount: 7900,
    created: t(9),
    riskScore: 23,
    email: "chargeback.pro@gmail.com",
  });
  add("charge.dispute.created", buildDispute(disputed, t(6)), t(6));
  const refunded = sale({
    amount: 2900,
    created: t(7),
    riskScore: 12,
    email: "changed.mind@acme.io",
  });
  add(
    "charge.refunded",
    { ...refunded, refunded: true, amount_refunded: 2900 } as Stripe.Charge,
    t(6) + 600,
  );
  sale({
    amount: 5000,
    currency: "jpy",
    created: t(2) + 900,
    riskScore: 9,
    email: "haruto@docomo.ne.jp",
    name: "Haruto Sato",
    cardCountry: "JP",
  });
  sale({
    amount: 4900,
    created: t(4) + 1200,
    status: "failed",
    outcomeType: "issuer_declined",
    riskScore: 57,
    riskLevel: "normal",
    email: "low.balance@gmail.com",
  });
  return events.sort((a, b) => a.created - b.created);
}

/**
 * What the demo turns on when no Standard rule is on yet, so each of them acts on a sample
 * charge (the threshold stays the merchant's; the samples assume the default 70).
 */
export const DEMO_POLICY = {
  rules: ["rule_high_risk", "rule_country_blocked", "rule_email", "rule_efw"] as const,
  countries: ["NG"],
};

/** What the bundle adds, for the console's confirm step: charges (failed ones among them), labels. */
export function demoBundleFigures(events: readonly Stripe.Event[]) {
  const charges = new Map<string, string>();
  let fraudLabels = 0;
  let oldest = Number.POSITIVE_INFINITY;
  let newest = 0;
  for (const event of events) {
    const object = event.data.object as { id: string; status?: string; reason?: string };
    if (event.type.startsWith("charge.") && !event.type.startsWith("charge.dispute.")) {
      charges.set(object.id, object.status ?? "");
      oldest = Math.min(oldest, event.created);
      newest = Math.max(newest, event.created);
    }
    // Stripe's fraud reports label the charge fraud (labels.service.ts fromStripe).
    if (event.type === "radar.early_fraud_warning.created") fraudLabels++;
    if (event.type === "charge.dispute.created" && object.reason === "fraudulent") fraudLabels++;
  }
  return {
    charges: charges.size,
    failedCharges: [...charges.values()].filter((status) => status === "failed").length,
    fraudLabels,
    screenings: 0,
    days: charges.size === 0 ? 0 : Math.ceil((newest - oldest) / DAY),
  };
}

/**
 * Realistic Stripe payloads, built by hand with the fields Radar really sets (the OpenAPI
 * fixtures carry placeholder outcomes). `npm run demo` sends the bundle through the real
 * webhook path; the tests use the same builders as fixtures.
 */
import type Stripe from "stripe";

const API_VERSION = "2025-10-29.clover";
let counter = 0;

/** A Stripe-looking id: prefix, then 24 base62 characters derived from a seed. */
export function stripeId(prefix: string, seed = `${Date.now()}-${++counter}`): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  // FNV-1a over the whole seed, then a xorshift stream for the characters.
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 16777619) >>> 0;
  let out = "";
  while (out.length < 24) {
    hash ^= hash << 13;
    hash ^= hash >>> 17;
    hash ^= hash << 5;
    hash >>>= 0;
    out += alphabet[hash % 62];
  }
  return `${prefix}_${out}`;
}

/** Charges of the demo bundle: their refunds and cancellations are simulated, never sent. */
export const DEMO_CHARGE_PREFIX = "ch_demo_";

export type ChargeOptions = {
  id?: string;
  amount?: number;
  currency?: string;
  email?: string | null;
  receiptEmail?: string | null;
  created?: number;
  status?: "succeeded" | "pending" | "failed";
  captured?: boolean;
  refunded?: boolean;
  amountRefunded?: number;
  disputed?: boolean;
  riskLevel?: "normal" | "elevated" | "highest" | "not_assessed";
  riskScore?: number | null;
  outcomeType?: "authorized" | "manual_review" | "issuer_declined" | "blocked" | "invalid";
  outcomeReason?: string | null;
  cardCountry?: string;
  billingCountry?: string;
  brand?: string;
  last4?: string;
  name?: string;
  livemode?: boolean;
};

const SELLER_MESSAGES: Record<string, string> = {
  authorized: "Payment complete.",
  manual_review:
    "Stripe evaluated this payment as having elevated risk, and placed it in your manual review queue.",
  issuer_declined: "The bank did not return any further details with this decline.",
  blocked: "Stripe blocked this payment as too risky.",
  invalid: "The payment could not be processed.",
};

export function buildCharge(options: ChargeOptions = {}): Stripe.Charge {
  const id = options.id ?? stripeId("ch_3");
  const status = options.status ?? "succeeded";
  const outcomeType =
    options.outcomeType ?? (status === "failed" ? "issuer_declined" : "authorized");
  const blocked = outcomeType === "blocked";
  const amount = options.amount ?? 4900;
  const captured = options.captured ?? status === "succeeded";
  const refunded = options.refunded ?? false;
  const amountRefunded = options.amountRefunded ?? (refunded ? amount : 0);
  const riskLevel = options.riskLevel ?? "normal";
  const riskScore = options.riskScore === undefined ? 18 : options.riskScore;
  const email = options.email === undefined ? "jane.doe@example.com" : options.email;
  const country = options.cardCountry ?? "US";
  const charge = {
    id,
    object: "charge",
    amount,
    amount_captured: captured ? amount : 0,
    amount_refunded: amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: status === "succeeded" && captured ? stripeId("txn_3", id) : null,
    billing_details: {
      address: {
        city: null,
        country: options.billingCountry ?? country,
        line1: null,
        line2: null,
        postal_code: "94107",
        state: null,
      },
      email,
      name: options.name ?? "Jane Doe",
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: "WARDEN DEMO",
    captured,
    created: options.created ?? Math.floor(Date.now() / 1000),
    currency: options.currency ?? "usd",
    customer: null,
    description: "Pro plan subscription",
    disputed: options.disputed ?? false,
    failure_balance_transaction: null,
    failure_code: status === "failed" ? "card_declined" : null,
    failure_message: status === "failed" ? "Your card was declined." : null,
    fraud_details: {},
    livemode: options.livemode ?? false,
    metadata: {},
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: blocked
        ? "not_sent_to_network"
        : status === "failed"
          ? "declined_by_network"
          : "approved_by_network",
      reason:
        options.outcomeReason === undefined
          ? blocked
            ? "highest_risk_level"
            : status === "failed"
              ? "generic_decline"
              : null
          : options.outcomeReason,
      risk_level: riskLevel,
      risk_score: riskScore,
      seller_message: SELLER_MESSAGES[outcomeType],
      type: outcomeType,
    },
    paid: status === "succeeded",
    payment_intent: stripeId("pi_3", id),
    payment_method: stripeId("pm_1", id),
    payment_method_details: {
      card: {
        amount_authorized: amount,
        brand: options.brand ?? "visa",
        checks: { address_line1_check: null, address_postal_code_check: "pass", cvc_check: "pass" },
        country,
        exp_month: 8,
        exp_year: 2029,
        fingerprint: stripeId("fp", `${country}${options.last4}`).slice(0, 19),
        funding: "credit",
        last4: options.last4 ?? "4242",
        network: options.brand ?? "visa",
        three_d_secure: null,
        wallet: null,
      },
      type: "card",
    },
    receipt_email: options.receiptEmail ?? null,
    receipt_url: null,
    refunded,
    refunds: {
      object: "list",
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${id}/refunds`,
    },
    review: null,
    shipping: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
  };
  return charge as unknown as Stripe.Charge;
}

export function buildEarlyFraudWarning(
  charge: Stripe.Charge,
  options: { actionable?: boolean; fraudType?: string; created?: number } = {},
): Stripe.Radar.EarlyFraudWarning {
  return {
    id: stripeId("issfr", charge.id),
    object: "radar.early_fraud_warning",
    actionable: options.actionable ?? true,
    charge: charge.id,
    created: options.created ?? charge.created + 3600,
    fraud_type: options.fraudType ?? "made_with_stolen_card",
    livemode: charge.livemode,
    payment_intent: charge.payment_intent,
  } as unknown as Stripe.Radar.EarlyFraudWarning;
}

export function buildDispute(
  charge: Stripe.Charge,
  created = charge.created + 86_400,
): Stripe.Dispute {
  return {
    id: stripeId("du", charge.id),
    object: "dispute",
    amount: charge.amount,
    charge: charge.id,
    created,
    currency: charge.currency,
    is_charge_refundable: false,
    livemode: charge.livemode,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: "fraudulent",
    status: "needs_response",
  } as unknown as Stripe.Dispute;
}

export function buildPaymentIntentCapturable(charge: Stripe.Charge): Stripe.PaymentIntent {
  return {
    id: charge.payment_intent as string,
    object: "payment_intent",
    amount: charge.amount,
    amount_capturable: charge.amount,
    capture_method: "manual",
    created: charge.created,
    currency: charge.currency,
    latest_charge: charge.id,
    livemode: charge.livemode,
    status: "requires_capture",
  } as unknown as Stripe.PaymentIntent;
}

export function buildEvent(
  type: string,
  object: { id: string; livemode?: boolean },
  options: { id?: string; created?: number; previous?: Record<string, unknown> } = {},
): Stripe.Event {
  return {
    id: options.id ?? stripeId("evt_3", `${type}:${object.id}:${options.created ?? ""}`),
    object: "event",
    api_version: API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    data: { object, ...(options.previous ? { previous_attributes: options.previous } : {}) },
    livemode: object.livemode ?? false,
    pending_webhooks: 1,
    request: { id: stripeId("req", object.id), idempotency_key: null },
    type,
  } as unknown as Stripe.Event;
}

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
  const demoId = (n: number) =>
    stripeId("ch_demo", `${now}:${n}`).replace("ch_demo_", DEMO_CHARGE_PREFIX);
  let n = 0;
  for (let i = 0; i < 24; i++) {
    const created = now - Math.floor(((i * 13) % 14) * DAY + ((i * 3779) % DAY));
    const name = NAMES[i % NAMES.length] ?? "Jane Doe";
    const email = `${name.toLowerCase().replace(" ", ".")}@${DOMAINS[i % DOMAINS.length]}`;
    const charge = buildCharge({
      id: demoId(n++),
      amount: 1900 + (i % 5) * 1000,
      created,
      email,
      name,
      riskScore: 5 + ((i * 7) % 40),
      last4: String(4242 + i).slice(-4),
    });
    add("charge.succeeded", charge, created);
  }
  const t = (daysAgo: number) => now - daysAgo * DAY - 3600;
  const elevated = buildCharge({
    id: demoId(n++),
    amount: 12900,
    created: t(1),
    riskLevel: "elevated",
    riskScore: 64,
    email: "m.ivanova@yandex.ru",
    name: "Maria Ivanova",
    cardCountry: "RU",
  });
  add("charge.succeeded", elevated, t(1));
  const radarBlocked = buildCharge({
    id: demoId(n++),
    amount: 49900,
    created: t(2),
    status: "failed",
    outcomeType: "blocked",
    riskLevel: "highest",
    riskScore: 91,
    email: "fast.buyer@gmail.com",
    cardCountry: "US",
  });
  add("charge.failed", radarBlocked, t(2));
  const highScore = buildCharge({
    id: demoId(n++),
    amount: 29900,
    created: t(0),
    riskLevel: "elevated",
    riskScore: 82,
    email: "promo.hunter@outlook.com",
    name: "Sam Hunter",
  });
  add("charge.succeeded", highScore, t(0));
  const badCountry = buildCharge({
    id: demoId(n++),
    amount: 9900,
    created: t(3),
    riskScore: 44,
    cardCountry: "NG",
    email: "olu.ade@gmail.com",
    name: "Olu Ade",
  });
  add("charge.succeeded", badCountry, t(3));
  const disposable = buildCharge({
    id: demoId(n++),
    amount: 900,
    created: t(1) + 600,
    riskScore: 35,
    email: "trial4trial@mailinator.com",
    name: "Free Trial",
  });
  add("charge.succeeded", disposable, t(1) + 600);
  const warned = buildCharge({
    id: demoId(n++),
    amount: 15900,
    created: t(5),
    riskScore: 41,
    email: "card.owner@icloud.com",
    name: "Card Owner",
  });
  add("charge.succeeded", warned, t(5));
  add("radar.early_fraud_warning.created", buildEarlyFraudWarning(warned, { created: t(4) }), t(4));
  const disputed = buildCharge({
    id: demoId(n++),
    amount: 7900,
    created: t(9),
    riskScore: 23,
    email: "chargeback.pro@gmail.com",
  });
  add("charge.succeeded", disputed, t(9));
  add("charge.dispute.created", buildDispute(disputed, t(6)), t(6));
  const refunded = buildCharge({
    id: demoId(n++),
    amount: 2900,
    created: t(7),
    riskScore: 12,
    email: "changed.mind@acme.io",
  });
  add("charge.succeeded", refunded, t(7));
  add(
    "charge.refunded",
    { ...refunded, refunded: true, amount_refunded: 2900 } as Stripe.Charge,
    t(6) + 600,
  );
  const yen = buildCharge({
    id: demoId(n++),
    amount: 5000,
    currency: "jpy",
    created: t(2) + 900,
    riskScore: 9,
    email: "haruto@docomo.ne.jp",
    name: "Haruto Sato",
    cardCountry: "JP",
  });
  add("charge.succeeded", yen, t(2) + 900);
  const declined = buildCharge({
    id: demoId(n++),
    amount: 4900,
    created: t(4) + 1200,
    status: "failed",
    outcomeType: "issuer_declined",
    riskScore: 57,
    riskLevel: "normal",
    email: "low.balance@gmail.com",
  });
  add("charge.failed", declined, t(4) + 1200);
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

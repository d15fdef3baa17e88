/**
 * Stripe-shaped objects built by hand with the fields Radar really sets (the OpenAPI fixtures
 * carry placeholder outcomes). The demo bundle is made of them; tests build their events with
 * the same functions (through test/fixtures/stripe.ts).
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
  metadata?: Record<string, string>;
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
    metadata: options.metadata ?? {},
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

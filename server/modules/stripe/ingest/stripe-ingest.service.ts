/**
 * Turns a verified Stripe event into stored state: the event once per account, the charge
 * merged (never moved backwards by a late event), the merchant's rules evaluated on it, and
 * any refund or cancellation recorded before it is carried out. All in one transaction, so
 * the webhook answers 2xx only for an event whose effects are committed.
 */
import type Stripe from "stripe";
import { emptyCounts, type Policy } from "../../../engine/index.ts";
import type { StripeClientFactory, StripeCredentials } from "../../../lib/stripe-client.ts";
import type { PolicyService } from "../../policy/policy.service.ts";
import { applyEvent, type Effect, effectOf } from "./apply-event.ts";
import { type ChargeSnapshot, snapshotOf } from "./charge-state.ts";
import type { CardProbe, StripeEventsRepository } from "./stripe-events.repository.ts";

const DAY_SECONDS = 86_400;

export type IngestStatus = "applied" | "ignored" | "duplicate";

type Deps = {
  repo: StripeEventsRepository;
  policy: PolicyService;
  credentials: StripeCredentials;
  stripeFor: StripeClientFactory;
  /** Called after commit when an action was recorded, so it is carried out promptly. */
  onActionRecorded(): void;
  /** Labels the charge fraud, once per event (labels.service.ts fromStripe). */
  onFraud?(accountId: string, chargeId: string, eventId: string, why: string): Promise<void>;
  /** Called after commit when a charge changed (the console's live pages). */
  onChargeChanged?(accountId: string): void;
  now: () => Date;
};

export function createStripeIngestService({
  repo,
  policy,
  credentials,
  stripeFor,
  onActionRecorded,
  onFraud,
  onChargeChanged,
  now,
}: Deps) {
  /** The charge as Stripe has it now; null when there is no key or Stripe cannot say. */
  async function fetchCharge(accountId: string, chargeId: string): Promise<ChargeSnapshot | null> {
    const { secretKey } = await credentials.stripeCredentials(accountId);
    if (!secretKey) return null;
    const charge = await stripeFor(secretKey)
      .charges.retrieve(chargeId)
      .catch(() => null);
    return charge ? snapshotOf(charge) : null;
  }

  /** rule_cc_reuse on a charge: which card and email to count, and since when. */
  function cardProbe(effect: Effect, loaded: Policy): CardProbe | null {
    const charge = effect.snapshot ?? effect.fetched;
    if (!loaded.rules.rule_cc_reuse || !charge?.cardFingerprint) return null;
    return {
      card: charge.cardFingerprint,
      email: charge.email,
      since: charge.created - loaded.settings.rule_cc_reuse.window_days * DAY_SECONDS,
      hourAgo: charge.created - 3600,
    };
  }

  return {
    /**
     * Applies one event. With `act: false` (history import) the charge is recorded but the
     * rules do not refund or cancel anything.
     */
    async ingest(
      accountId: string,
      event: Stripe.Event,
      { act = true }: { act?: boolean } = {},
    ): Promise<{ status: IngestStatus }> {
      const effect = effectOf(event);
      const loaded = effect ? await policy.load(accountId) : null;
      // A warning or authorization can arrive before its charge: ask Stripe for the charge.
      if (effect && !effect.snapshot && !(await repo.hasCharge(accountId, effect.chargeId))) {
        effect.fetched = (await fetchCharge(accountId, effect.chargeId)) ?? undefined;
      }

      const record = {
        accountId,
        eventId: event.id,
        type: event.type,
        created: event.created,
        status: effect ? "applied" : "ignored",
        chargeId: effect?.chargeId ?? null,
      };
      if (!effect || !loaded) {
        return { status: (await repo.recordEvent(record)) ? "ignored" : "duplicate" };
      }
      // Before the event is recorded: a failure here is retried with the event, and the
      // label is keyed by the event, so a redelivery never labels twice.
      if (effect.fraud && onFraud) {
        await onFraud(accountId, effect.chargeId, event.id, effect.fraud);
      }
      const base = policy.features();
      const result = await repo.applyToCharge(
        { ...record, chargeId: effect.chargeId },
        cardProbe(effect, loaded),
        (row, usage) => {
          const counts = emptyCounts();
          if (usage) {
            counts.usersOnCard = { card: usage.otherEmails };
            counts.cardsLastHour = { user: 0, email: usage.otherCards, ip: 0, device: 0 };
          }
          // Object.assign, not a spread then new keys: that is slow in Node 20 (see featuresOf).
          const features = Object.assign({}, base, { counts });
          const { update, action } = applyEvent(row, effect, loaded, features, { act });
          return {
            update,
            action: action ? Object.assign(action, { nextAttemptAt: now() }) : null,
          };
        },
      );
      if (result.status === "applied" && result.action) onActionRecorded();
      if (result.status === "applied") onChargeChanged?.(accountId);
      return { status: result.status };
    },
  };
}

export type StripeIngestService = ReturnType<typeof createStripeIngestService>;

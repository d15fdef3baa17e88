/**
 * An end user's data rights (docs/privacy.md, decision 029): everything the account holds
 * about one of its customers, named by email, user id, device id or IP, as JSON with where each
 * item came from; what erasing them would change; and the erasure itself, in one transaction,
 * with its `end_user.erased` event. The person is matched in the caller's account only; the
 * emails and user ids their screenings carried beside the given email or user id are theirs
 * too (expanded once), an IP or a device never expands (shared by many).
 */
import { randomUUID } from "node:crypto";
import {
  END_USER_SELECTORS,
  type EndUserExport,
  type EndUserSelector,
  type EndUserSelectorKind,
  type ErasurePreview,
  type ErasureResult,
  EXPORT_LIMIT,
  EXPORT_SOURCES,
  type ExportSource,
  ZEndUserSelector,
} from "../../../shared/schemas/end-users.ts";
import type { DecisionEvent } from "../webhooks/webhooks.types.ts";
import type { Counts, EndUsersRepository, PersonValues } from "./end-users.repository.ts";
import { erasurePattern } from "./erasure-sweep.ts";

type Deps = {
  repo: EndUsersRepository;
  now: () => Date;
  /** The allow list changed (entries naming the person were deleted): the policy reloads. */
  onChange(accountId: string): void;
  /** The `end_user.erased` event of an erasure (webhooks/decision-events.ts). */
  eventOf(erasure: Omit<ErasureResult, "kept">): DecisionEvent;
  /** The webhooks worker, woken once an erasure's event is committed. */
  eventsStored?: () => void;
};

const unique = (values: (string | undefined)[]) => [
  ...new Set(values.filter((value): value is string => Boolean(value))),
];

const kindsOf = (selector: EndUserSelector): EndUserSelectorKind[] =>
  END_USER_SELECTORS.filter((kind) => selector[kind] !== undefined);

/** What an erasure keeps, and why, as the console shows it before the merchant confirms. */
export function keptSentences(counts: Counts, identityKinds: Record<string, number>): string[] {
  const kinds = Object.entries(identityKinds)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  return [
    `Counting identities (${counts.identities}${kinds ? `: ${kinds}` : ""}): keyed digests of the person's email, user id, device, IP, card and codes, not the values. They are pseudonymous, not anonymous: whoever holds this Warden's secret and a candidate value can test it. They are kept so the rules still count a returning person (one trial per email, one card per account) and go when their retention ends.`,
    "Screenings: the decision, risk score, rules that fired, event type, amount, currency, country and time stay, for your statistics and Test on history; every value naming the person is removed from them.",
    "Charges: the amount, currency, outcome and Stripe charge id stay. The charge is still in Stripe: redact the customer there too.",
    "Labels: whether each screening or charge was fraud or legitimate, and who said so, stay; their notes are removed.",
    "The audit log keeps that this erasure happened, who asked and how many rows it changed, never the values.",
  ];
}

function sections(rows: Awaited<ReturnType<EndUsersRepository["rows"]>>) {
  const item = (source: ExportSource, fields: Record<string, unknown>) => ({ source, ...fields });
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  const parsed = (body: string) => {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  };
  return {
    screenings: rows.screenings.map((s) =>
      item("screenings", {
        id: s.id,
        created_at: iso(s.createdAt),
        type: s.type,
        user_id: s.userId,
        email: s.email,
        ip: s.ip,
        collect_ip: s.collectIp,
        country: s.country,
        decision: s.decision,
        score: s.score,
        input: s.input,
        signals: s.signals,
        reasons: s.reasons,
        allowed: s.allowed,
        linked: s.linked,
        review_status: s.reviewStatus,
        reviewed_at: iso(s.reviewedAt),
        reviewed_by: s.reviewedBy,
        review_note: s.reviewNote,
      }),
    ),
    charges: rows.charges.map((c) =>
      item("charges", {
        charge_id: c.chargeId,
        created: new Date(c.created * 1000).toISOString(),
        amount: c.amount,
        currency: c.currency,
        email: c.email,
        card_fingerprint: c.cardFingerprint,
        card_country: c.cardCountry,
        billing_country: c.billingCountry,
        outcome: c.outcome,
        review_status: c.reviewStatus,
        reviewed_by: c.reviewedBy,
        review_note: c.reviewNote,
      }),
    ),
    labels: rows.labels.map((l) =>
      item("labels", {
        id: l.id,
        subject_kind: l.subjectKind,
        subject_id: l.subjectId,
        label: l.label,
        source_kind: l.source,
        who: l.who,
        note: l.note,
        created_at: iso(l.createdAt),
      }),
    ),
    allow_entries: rows.allowEntries.map((a) =>
      item("allow_entries", {
        id: a.id,
        kind: a.kind,
        value: a.value,
        note: a.note,
        added_by: a.addedBy,
        created_at: iso(a.createdAt),
        expires_at: iso(a.expiresAt),
      }),
    ),
    signal_tokens: rows.tokens.map((t) =>
      item("signal_tokens", {
        id: t.id,
        created_at: iso(t.createdAt),
        expires_at: iso(t.expiresAt),
        consumed_at: iso(t.consumedAt),
        origin: t.origin,
        collect_ip: t.collectIp,
        signals: t.signals,
      }),
    ),
    webhook_deliveries: rows.deliveries.map((d) =>
      item("webhook_deliveries", {
        id: d.id,
        event_id: d.eventId,
        event_type: d.eventType,
        status: d.status,
        created_at: iso(d.createdAt),
        body: parsed(d.body),
      }),
    ),
    audit_events: rows.audits.map((e) =>
      item("audit_events", {
        id: e.id,
        at: iso(e.at),
        actor: e.actor,
        action: e.action,
        target: e.target,
        before: e.before,
        after: e.after,
      }),
    ),
  };
}

export function createEndUsersService({ repo, now, onChange, eventOf, eventsStored }: Deps) {
  /** The selector's values, and the person's other emails and user ids (expanded once). */
  async function person(accountId: string, raw: EndUserSelector) {
    const selector = ZEndUserSelector.parse(raw);
    const also = await repo.alsoKnownAs(
      accountId,
      unique([selector.email]),
      unique([selector.user_id]),
    );
    const values: PersonValues = {
      emails: unique([selector.email, ...also.emails]),
      userIds: unique([selector.user_id, ...also.userIds]),
      devices: unique([selector.device_id]),
      ips: unique([selector.ip]),
    };
    const pattern =
      erasurePattern([...values.emails, ...values.userIds, ...values.devices, ...values.ips]) ??
      "(?!)";
    return { selector, selectors: kindsOf(selector), values, pattern };
  }

  return {
    /** What an erasure would change and keep; changes nothing. */
    async preview(accountId: string, raw: EndUserSelector): Promise<ErasurePreview> {
      const { selectors, values, pattern } = await person(accountId, raw);
      const { counts, identityKinds } = await repo.counts(accountId, values, pattern);
      return { selectors, counts, kept: keptSentences(counts, identityKinds) };
    },

    /** Everything held about the person, each item with its source; at most EXPORT_LIMIT each. */
    async export(accountId: string, raw: EndUserSelector): Promise<EndUserExport> {
      const { selector, selectors, values, pattern } = await person(accountId, raw);
      const { counts, identityKinds } = await repo.counts(accountId, values, pattern);
      const items = sections(await repo.rows(accountId, values, pattern, EXPORT_LIMIT));
      const truncated = (Object.keys(items) as (keyof typeof items)[]).filter(
        (key) => counts[key] > items[key].length,
      );
      return {
        exported_at: now().toISOString(),
        selectors,
        subject: {
          ...(selector.email !== undefined && { email: selector.email }),
          ...(selector.user_id !== undefined && { user_id: selector.user_id }),
          ...(selector.device_id !== undefined && { device_id: selector.device_id }),
          ...(selector.ip !== undefined && { ip: selector.ip }),
        },
        counts,
        sources: { ...EXPORT_SOURCES },
        ...items,
        identities: { count: counts.identities, kinds: identityKinds },
        truncated,
      };
    },

    /** Erases the person (one transaction) and stores its `end_user.erased` event. */
    async erase(accountId: string, raw: EndUserSelector): Promise<ErasureResult> {
      const { selectors, values, pattern } = await person(accountId, raw);
      const erasureId = randomUUID();
      const erasedAt = now().toISOString();
      const { counts, identityKinds, staged } = await repo.erase(
        accountId,
        values,
        pattern,
        (counted) => [
          eventOf({ erasure_id: erasureId, erased_at: erasedAt, selectors, counts: counted }),
        ],
      );
      if (counts.allow_entries > 0) onChange(accountId);
      if (staged) eventsStored?.();
      return {
        erasure_id: erasureId,
        erased_at: erasedAt,
        selectors,
        counts,
        kept: keptSentences(counts, identityKinds),
      };
    },
  };
}

export type EndUsersService = ReturnType<typeof createEndUsersService>;

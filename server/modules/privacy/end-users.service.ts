/**
 * An end user's data rights (docs/privacy.md, decision 029): everything the account holds
 * about one of its customers, named by email, user id, device id, IP or card, as JSON with
 * where each item came from; what erasing them would change; and the erasure itself, in one
 * transaction, with its `end_user.erased` event. The person is matched in the caller's account
 * only, by the values asked for and the spellings of the email that reach the same inbox. The
 * emails and user ids their screenings carried beside those are offered, and matched only when
 * the merchant confirms (`widen`): an end user who signs up once with someone else's email
 * must not reach that person's rows. An IP or a device never widens (shared by many).
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
import { AppError } from "../../lib/app-error.ts";
import { normalizeEmail } from "../screening/screening.entry.ts";
import type { DecisionEvent } from "../webhooks/webhooks.types.ts";
import type { Counts, EndUsersRepository, PersonValues } from "./end-users.repository.ts";

type Deps = {
  repo: EndUsersRepository;
  now: () => Date;
  /** The allow list changed (entries naming the person were deleted): the policy reloads. */
  onChange(accountId: string): void;
  /** The `end_user.erased` event of an erasure (webhooks/decision-events.ts). */
  eventOf(erasure: Omit<ErasureResult, "kept" | "widened">): DecisionEvent;
  /** The webhooks worker, woken once an erasure's event is committed. */
  eventsStored?: () => void;
  /** Erasures of one account that may run at once (on every instance together). */
  slots?: number;
};

/** Each running erasure holds a slot; the next one is told to come back this much later. */
const RETRY_AFTER_SECONDS = 5;

/** Where a person may be named that no typed match reaches: the preview says so. */
export const NOT_SEARCHED = [
  "Free text about other people: a note written on many reviews at once, a label's note on another person's screening or charge. Search the Audit log and Review history by hand if the person asked.",
  "Stripe: the charge and the customer are still in Stripe; redact the customer there too.",
  "Your own systems: Warden does not know what your backend or your webhook receiver kept.",
];

const unique = (values: (string | undefined)[]) => [
  ...new Set(values.filter((value): value is string => Boolean(value))),
];

const kindsOf = (selector: EndUserSelector): EndUserSelectorKind[] =>
  END_USER_SELECTORS.filter((kind) => selector[kind] !== undefined);

const folds = (values: string[]) => new Set(values.map((value) => value.toLowerCase()));

/** Domains whose addresses the rules fold together (normalizeEmail), by the one they fold to. */
const SAME_INBOX_DOMAINS: Record<string, string[]> = {
  "gmail.com": ["gmail.com", "googlemail.com"],
  "googlemail.com": ["gmail.com", "googlemail.com"],
};

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/** Whether the rules fold more than the case of addresses at `domain` (dots, +tags, -suffixes). */
const foldsAt = (domain: string) =>
  ["a.b+c", "a-b"].some((local) => normalizeEmail(`${local}@${domain}`) !== `${local}@${domain}`);

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

export function createEndUsersService({
  repo,
  now,
  onChange,
  eventOf,
  eventsStored,
  slots = 2,
}: Deps) {
  const running = new Map<string, number>();

  /**
   * The stored spellings of `emails` that reach the same inbox (+tags, Gmail dots, case). Only
   * at a provider whose addresses the rules fold: elsewhere the fold is the case alone, which
   * the match itself ignores.
   */
  async function spellingsOf(accountId: string, emails: string[]) {
    const asked = folds(emails);
    const found: string[] = [];
    for (const email of emails) {
      const domain = domainOf(email);
      if (!foldsAt(domain)) continue;
      const inbox = normalizeEmail(email);
      // Every spelling of the inbox, lowercased without dots, starts with its local part so.
      const prefix = inbox.slice(0, inbox.lastIndexOf("@")).replaceAll(".", "");
      for (const stored of await repo.emailsLike(
        accountId,
        SAME_INBOX_DOMAINS[domain] ?? [domain],
        prefix,
      )) {
        const key = stored.toLowerCase();
        if (asked.has(key) || normalizeEmail(stored) !== inbox) continue;
        asked.add(key);
        found.push(stored);
      }
    }
    return found;
  }

  /** The values asked for, the spellings matched with them, and the widening offered. */
  async function person(accountId: string, raw: EndUserSelector) {
    const selector = ZEndUserSelector.parse(raw);
    const given = unique([selector.email]);
    const spellings = await spellingsOf(accountId, given);
    const asked: PersonValues = {
      emails: [...given, ...spellings],
      userIds: unique([selector.user_id]),
      devices: unique([selector.device_id]),
      ips: unique([selector.ip]),
      cards: unique([selector.card_fingerprint]),
    };
    const also = await repo.alsoKnownAs(accountId, asked.emails, asked.userIds);
    const knownEmails = folds(asked.emails);
    const widening = {
      emails: unique(also.emails.filter((email) => !knownEmails.has(email.toLowerCase()))),
      user_ids: unique(also.userIds.filter((id) => !asked.userIds.includes(id))),
    };
    const widened = selector.widen === true;
    const values: PersonValues = widened
      ? {
          ...asked,
          emails: [...asked.emails, ...widening.emails],
          userIds: [...asked.userIds, ...widening.user_ids],
        }
      : asked;
    return { selector, selectors: kindsOf(selector), asked, values, spellings, widening, widened };
  }

  /** Holds one of the account's erasure slots in this process while `work` runs. */
  async function withSlot<T>(accountId: string, work: () => Promise<T | null>): Promise<T> {
    const busy = () =>
      new AppError(
        "TOO_MANY_REQUESTS",
        "Another erasure of this account is running: try again shortly.",
        {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        },
      );
    const n = running.get(accountId) ?? 0;
    if (n >= slots) throw busy();
    running.set(accountId, n + 1);
    try {
      const result = await work();
      if (result === null) throw busy();
      return result;
    } finally {
      const left = (running.get(accountId) ?? 1) - 1;
      if (left > 0) running.set(accountId, left);
      else running.delete(accountId);
    }
  }

  return {
    /** What an erasure would change and keep, and whom it would reach; changes nothing. */
    async preview(accountId: string, raw: EndUserSelector): Promise<ErasurePreview> {
      const { selectors, asked, values, spellings, widening, widened } = await person(
        accountId,
        raw,
      );
      const { counts, identityKinds } = await repo.counts(accountId, values, asked);
      const found = await repo.devicesAndCards(accountId, values);
      return {
        selectors,
        spellings,
        widening,
        widened,
        counts,
        offered: {
          devices: found.devices.filter((device) => !values.devices.includes(device)),
          cards: found.cards.filter((card) => !values.cards.includes(card)),
        },
        kept: keptSentences(counts, identityKinds),
        not_searched: NOT_SEARCHED,
      };
    },

    /** Everything held about the person, each item with its source; at most EXPORT_LIMIT each. */
    async export(accountId: string, raw: EndUserSelector): Promise<EndUserExport> {
      const { selector, selectors, asked, values, spellings, widening, widened } = await person(
        accountId,
        raw,
      );
      const { counts, identityKinds } = await repo.counts(accountId, values, asked);
      const items = sections(await repo.rows(accountId, values, asked, EXPORT_LIMIT));
      const truncated = (Object.keys(items) as (keyof typeof items)[]).filter(
        (key) => counts[key] > items[key].length,
      );
      return {
        exported_at: now().toISOString(),
        selectors,
        subject: Object.fromEntries(
          END_USER_SELECTORS.flatMap((kind) =>
            selector[kind] === undefined ? [] : [[kind, selector[kind]]],
          ),
        ),
        spellings,
        widening,
        widened,
        counts,
        sources: { ...EXPORT_SOURCES },
        ...items,
        identities: { count: counts.identities, kinds: identityKinds },
        truncated,
      };
    },

    /**
     * Erases the person (one transaction) and stores its `end_user.erased` event. At most
     * `slots` at once per account: another gets 429 with Retry-After.
     */
    async erase(accountId: string, raw: EndUserSelector): Promise<ErasureResult> {
      const selector = ZEndUserSelector.parse(raw);
      const erasureId = randomUUID();
      const erasedAt = now().toISOString();
      // The slot is held from the first read: finding the person is part of the work.
      const { selectors, widened, done } = await withSlot(accountId, async () => {
        const { selectors, asked, values, widened } = await person(accountId, selector);
        const done = await repo.erase(
          accountId,
          values,
          asked,
          (counted) => [
            eventOf({ erasure_id: erasureId, erased_at: erasedAt, selectors, counts: counted }),
          ],
          slots,
        );
        return done && { selectors, widened, done };
      });
      if (done.counts.allow_entries > 0) onChange(accountId);
      if (done.staged) eventsStored?.();
      return {
        erasure_id: erasureId,
        erased_at: erasedAt,
        selectors,
        widened,
        counts: done.counts,
        kept: keptSentences(done.counts, done.identityKinds),
      };
    },
  };
}

export type EndUsersService = ReturnType<typeof createEndUsersService>;

/**
 * The review queue's use cases: list open items, screenings and charges, oldest first (with
 * the identities they share with earlier events), count them for the console shell, settle
 * one or a filtered set (approve / deny, with who, when and a note), and read one screening
 * with its review state and labels (GET /api/v1/screenings/{id}).
 */
import { toMajorUnits } from "../../../shared/currency.ts";
import {
  type ChargeReviewDetail,
  REVIEW_COUNT_CAP,
  type ReviewDecisionInput,
  type ReviewFilters,
  type ReviewItem,
  type ReviewKind,
  type ReviewQueueInput,
  type ScreeningDetail,
  ZReviewDecisionInput,
  ZReviewFilters,
  ZReviewQueueInput,
} from "../../../shared/schemas/review.ts";
import type { ScreeningRow } from "../../../shared/schemas/screening.ts";
import { AppError } from "../../lib/app-error.ts";
import type { LabelsService } from "../labels/labels.service.ts";
import type { DecisionEvent } from "../webhooks/webhooks.types.ts";
import type { ChargeReviewRepository, OpenCharge } from "./charge-review.repository.ts";
import {
  decodeCursor,
  encodeCursor,
  keysetsAfter,
  kindsOf,
  mergeOldestFirst,
} from "./queue-order.ts";
import type { OpenRow, QueueFilters, ReviewRepository, SettleEvents } from "./review.repository.ts";
import { sharedIdentities } from "./shared-identities.ts";

const HOUR_MS = 3_600_000;
/** Items a bulk action settles per statement. */
const BULK_BATCH = 1000;

export type Settled = {
  kind: ReviewKind;
  id: string;
  status: "approved" | "denied";
  userId: string | null;
  email: string | null;
};

type Deps = {
  repo: ReviewRepository;
  charges: ChargeReviewRepository;
  labels: LabelsService;
  now: () => Date;
  /** The account's key for identity digests (screening/identities.ts). */
  digestKeyOf: (accountId: string) => string;
  /** The decision event that reports a settled item, stored in the settle's transaction. */
  eventOf?: (settled: Settled, by: string) => DecisionEvent;
  /** Told after settled items and their events are committed (the webhooks worker sends them). */
  eventsStored?: () => void;
  /** Told of each item settled one at a time, after it is stored ("always allow this user"). */
  onSettled?: (
    accountId: string,
    settled: Settled,
    input: { alwaysAllow: boolean; by: string },
  ) => Promise<void>;
};

/** A page's item before its shared identities and label are added. */
type Entry = { kind: ReviewKind; at: number; id: string } & (
  | { screening: OpenRow }
  | { charge: OpenCharge }
);

const screeningEntry = (row: OpenRow): Entry => ({
  kind: "screening",
  at: row.createdAt.getTime(),
  id: row.id,
  screening: row,
});
const chargeEntry = (row: OpenCharge): Entry => ({
  kind: "charge",
  at: row.created * 1000,
  id: row.id,
  charge: row,
});

/** A charge's identities, shaped as a stored screening's for sharedIdentities(). */
const chargeIdentity = (row: OpenCharge) => ({
  email: row.email,
  ip: null,
  input: row.cardFingerprint ? { card_fingerprint: row.cardFingerprint } : {},
  signals: null,
});

const STATUS = { approve: "approved", deny: "denied" } as const;

export function createReviewService({
  repo,
  charges,
  labels,
  now,
  digestKeyOf,
  onSettled,
  eventOf,
  eventsStored,
}: Deps) {
  /** The events of a settle's rows, stored with them. */
  const eventsOf =
    (kind: ReviewKind, status: Settled["status"], by: string): SettleEvents =>
    (rows) =>
      eventOf ? rows.map((row) => eventOf({ ...row, kind, status }, by)) : [];

  function queueFilters(f: ReviewFilters): QueueFilters {
    return {
      rule: f.rule,
      type: f.type,
      before: f.older_than_hours
        ? new Date(now().getTime() - f.older_than_hours * HOUR_MS)
        : undefined,
    };
  }

  return {
    async queue(accountId: string, raw: ReviewQueueInput) {
      const input = ZReviewQueueInput.parse(raw);
      const filters = queueFilters(input);
      const after = input.cursor ? keysetsAfter(decodeCursor(input.cursor)) : undefined;
      const kinds = kindsOf(input);
      const [screenings, chargeRows] = await Promise.all([
        kinds.screening ? repo.open(accountId, filters, input.limit + 1, after?.screenings) : [],
        kinds.charge ? charges.open(accountId, filters, input.limit + 1, after?.charges) : [],
      ]);
      const entries = mergeOldestFirst(
        screenings.map(screeningEntry),
        chargeRows.map(chargeEntry),
        input.limit + 1,
      );
      const page = entries.slice(0, input.limit);
      const key = digestKeyOf(accountId);
      const probes = page.flatMap((entry) =>
        sharedIdentities(
          "screening" in entry ? entry.screening : chargeIdentity(entry.charge),
          key,
        ).map((id) => ({ ...id, screeningId: entry.id, at: new Date(entry.at) })),
      );
      const idsOf = (kind: ReviewKind) => page.filter((e) => e.kind === kind).map((e) => e.id);
      const [shared, screeningLabels, chargeLabels] = await Promise.all([
        repo.shared(accountId, probes),
        labels.latest(accountId, "screening", idsOf("screening")),
        labels.latest(accountId, "charge", idsOf("charge")),
      ]);
      const sharedOf = (id: string) =>
        shared
          .filter((s) => s.screeningId === id && s.events > 0)
          .map((s) => ({
            kind: s.kind as ReviewItem["shared"][number]["kind"],
            events: s.events,
            fraud: s.fraud,
          }));
      const last = page.at(-1);
      return {
        items: page.map((entry): ReviewItem => {
          const common = {
            id: entry.id,
            kind: entry.kind,
            created_at: new Date(entry.at).toISOString(),
            shared: sharedOf(entry.id),
          };
          if ("screening" in entry) {
            const row = entry.screening;
            return {
              ...common,
              type: row.type as ReviewItem["type"],
              user_id: row.userId,
              email: row.email,
              ip: row.ip,
              score: row.score,
              charge: null,
              reasons: row.reasons as ReviewItem["reasons"],
              label: screeningLabels.get(row.id) ?? null,
            };
          }
          const row = entry.charge;
          return {
            ...common,
            type: null,
            user_id: null,
            email: row.email,
            ip: null,
            score: row.riskScore,
            charge: { amount: toMajorUnits(row.amount, row.currency), currency: row.currency },
            reasons: (row.reasons ?? []) as ReviewItem["reasons"],
            label: chargeLabels.get(row.id) ?? null,
          };
        }),
        nextCursor: entries.length > input.limit && last ? encodeCursor(last) : null,
      };
    },

    async count(accountId: string) {
      const [screenings, chargesOpen] = await Promise.all([
        repo.countOpen(accountId, REVIEW_COUNT_CAP + 1),
        charges.countOpen(accountId, REVIEW_COUNT_CAP + 1),
      ]);
      const open = screenings + chargesOpen;
      return { open: Math.min(open, REVIEW_COUNT_CAP), capped: open > REVIEW_COUNT_CAP };
    },

    /** Approves or denies one open item; CONFLICT if it was settled already. */
    async settle(accountId: string, id: string, raw: ReviewDecisionInput, by: string) {
      const input = ZReviewDecisionInput.parse(raw);
      const status = STATUS[input.decision];
      const settled = await repo.settle(
        accountId,
        id,
        { status, at: now(), by, note: input.note || null },
        eventsOf("screening", status, by),
      );
      if (!settled) {
        const row = await repo.find(accountId, id);
        if (!row) throw new AppError("NOT_FOUND", "No such screening in this account.");
        if (row.decision !== "review") {
          throw new AppError(
            "CONFLICT",
            `Screening ${id} was answered ${row.decision}, not review.`,
          );
        }
        throw new AppError(
          "CONFLICT",
          `Screening ${id} was already ${row.reviewStatus} by ${row.reviewedBy} at ${row.reviewedAt?.toISOString()}.`,
        );
      }
      eventsStored?.();
      await onSettled?.(
        accountId,
        { ...settled, kind: "screening", status },
        {
          alwaysAllow: status === "approved" && Boolean(input.always_allow),
          by,
        },
      );
      return this.detail(accountId, id);
    },

    /** Approves or denies one open charge; CONFLICT if it was settled already. */
    async settleCharge(
      accountId: string,
      chargeId: string,
      raw: ReviewDecisionInput,
      by: string,
    ): Promise<ChargeReviewDetail> {
      const input = ZReviewDecisionInput.parse(raw);
      const status = STATUS[input.decision];
      const settled = await charges.settle(
        accountId,
        chargeId,
        { status, at: now(), by, note: input.note || null },
        eventsOf("charge", status, by),
      );
      if (!settled) {
        const row = await charges.find(accountId, chargeId);
        if (!row) throw new AppError("NOT_FOUND", "No such charge in this account.");
        if (!row.reviewStatus) {
          throw new AppError("CONFLICT", `Charge ${chargeId} was not sent to review.`);
        }
        throw new AppError(
          "CONFLICT",
          `Charge ${chargeId} was already ${row.reviewStatus} by ${row.reviewedBy} at ${row.reviewedAt?.toISOString()}.`,
        );
      }
      eventsStored?.();
      await onSettled?.(
        accountId,
        { ...settled, kind: "charge", status },
        { alwaysAllow: status === "approved" && Boolean(input.always_allow), by },
      );
      return this.chargeDetail(accountId, chargeId);
    },

    /** Settles every open item that matches the filters; returns how many. */
    async settleFiltered(
      accountId: string,
      rawFilters: ReviewFilters,
      decision: "approve" | "deny",
      note: string | undefined,
      by: string,
    ): Promise<{ settled: number }> {
      const parsed = ZReviewFilters.parse(rawFilters);
      const filters = queueFilters(parsed);
      const kinds = kindsOf(parsed);
      const s = { status: STATUS[decision], at: now(), by, note: note || null };
      const tables = [
        ...(kinds.screening ? [{ kind: "screening" as const, settleMany: repo.settleMany }] : []),
        ...(kinds.charge ? [{ kind: "charge" as const, settleMany: charges.settleMany }] : []),
      ];
      let settled = 0;
      for (const table of tables) {
        for (;;) {
          const rows = await table.settleMany(
            accountId,
            filters,
            BULK_BATCH,
            s,
            eventsOf(table.kind, s.status, by),
          );
          settled += rows.length;
          if (rows.length > 0) eventsStored?.();
          if (rows.length < BULK_BATCH) break;
        }
      }
      return { settled };
    },

    async detail(accountId: string, id: string): Promise<ScreeningDetail> {
      const row = await repo.find(accountId, id);
      if (!row) throw new AppError("NOT_FOUND", "No such screening in this account.");
      const history = await labels.history(accountId, {
        subject_kind: "screening",
        subject_id: id,
      });
      return {
        id: row.id,
        created_at: row.createdAt.toISOString(),
        type: row.type as ScreeningDetail["type"],
        user_id: row.userId,
        email: row.email,
        ip: row.ip,
        decision: row.decision as ScreeningDetail["decision"],
        score: row.score,
        reasons: row.reasons as ScreeningRow["reasons"],
        monitored: row.monitored as ScreeningRow["monitored"],
        review:
          row.decision === "review"
            ? {
                status: (row.reviewStatus ?? "open") as "open" | "approved" | "denied",
                at: row.reviewedAt?.toISOString() ?? null,
                by: row.reviewedBy,
                note: row.reviewNote,
              }
            : null,
        labels: history,
      };
    },

    /** A charge's review state, reasons and labels. */
    async chargeDetail(accountId: string, chargeId: string): Promise<ChargeReviewDetail> {
      const row = await charges.find(accountId, chargeId);
      if (!row) throw new AppError("NOT_FOUND", "No such charge in this account.");
      return {
        kind: "charge",
        id: row.chargeId,
        email: row.email,
        reasons: (row.reviewReasons ?? []) as ChargeReviewDetail["reasons"],
        review: {
          status: (row.reviewStatus ?? "open") as ChargeReviewDetail["review"]["status"],
          at: row.reviewedAt?.toISOString() ?? null,
          by: row.reviewedBy,
          note: row.reviewNote,
        },
        labels: await labels.history(accountId, { subject_kind: "charge", subject_id: chargeId }),
      };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

/**
 * The review queue's use cases: list open items oldest first (with the identities they share
 * with earlier events), count them for the console shell, settle one or a filtered set
 * (approve / deny, with who, when and a note), and read one screening with its review state
 * and labels (GET /api/v1/screenings/{id}).
 */
import {
  REVIEW_COUNT_CAP,
  type ReviewDecisionInput,
  type ReviewFilters,
  type ReviewItem,
  type ReviewQueueInput,
  type ScreeningDetail,
  ZReviewDecisionInput,
  ZReviewFilters,
  ZReviewQueueInput,
} from "../../../shared/schemas/review.ts";
import type { ScreeningRow } from "../../../shared/schemas/screening.ts";
import { AppError } from "../../lib/app-error.ts";
import type { LabelsService } from "../labels/labels.service.ts";
import type { QueueFilters, ReviewRepository } from "./review.repository.ts";
import { sharedIdentities } from "./shared-identities.ts";

const HOUR_MS = 3_600_000;
/** Items a bulk action settles per statement. */
const BULK_BATCH = 1000;

export type Settled = {
  id: string;
  status: "approved" | "denied";
  userId: string | null;
  email: string | null;
};

type Deps = {
  repo: ReviewRepository;
  labels: LabelsService;
  now: () => Date;
  /** The account's key for identity digests (screening/identities.ts). */
  digestKeyOf: (accountId: string) => string;
  /** Told of each settled item after it is stored (allow lists, decision webhooks). */
  /** Told of the items a bulk action settled, a batch at a time. */
  onSettledMany?: (accountId: string, settled: Settled[], by: string) => void;
  onSettled?: (
    accountId: string,
    settled: Settled,
    input: { alwaysAllow: boolean; by: string },
  ) => Promise<void>;
};

function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const createdAt = new Date(time ?? "");
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError("BAD_REQUEST", "cursor: is not a cursor this server gave out", {
      issues: [{ path: "cursor", message: "is not a cursor this server gave out" }],
    });
  }
  return { createdAt, id };
}

const STATUS = { approve: "approved", deny: "denied" } as const;

export function createReviewService({
  repo,
  labels,
  now,
  digestKeyOf,
  onSettled,
  onSettledMany,
}: Deps) {
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
      const rows = await repo.open(
        accountId,
        queueFilters(input),
        input.limit + 1,
        input.cursor ? decodeCursor(input.cursor) : undefined,
      );
      const page = rows.slice(0, input.limit);
      const probes = page.flatMap((row) =>
        sharedIdentities(row, digestKeyOf(accountId)).map((id) => ({
          ...id,
          screeningId: row.id,
          at: row.createdAt,
        })),
      );
      const [shared, latest] = await Promise.all([
        repo.shared(accountId, probes),
        labels.latest(
          accountId,
          "screening",
          page.map((row) => row.id),
        ),
      ]);
      const last = page.at(-1);
      return {
        items: page.map(
          (row): ReviewItem => ({
            id: row.id,
            kind: "screening",
            created_at: row.createdAt.toISOString(),
            type: row.type as ReviewItem["type"],
            user_id: row.userId,
            email: row.email,
            ip: row.ip,
            score: row.score,
            reasons: row.reasons as ReviewItem["reasons"],
            shared: shared
              .filter((s) => s.screeningId === row.id && s.events > 0)
              .map((s) => ({
                kind: s.kind as ReviewItem["shared"][number]["kind"],
                events: s.events,
                fraud: s.fraud,
              })),
            label: latest.get(row.id) ?? null,
          }),
        ),
        nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
      };
    },

    async count(accountId: string) {
      const open = await repo.countOpen(accountId, REVIEW_COUNT_CAP + 1);
      return { open: Math.min(open, REVIEW_COUNT_CAP), capped: open > REVIEW_COUNT_CAP };
    },

    /** Approves or denies one open item; CONFLICT if it was settled already. */
    async settle(accountId: string, id: string, raw: ReviewDecisionInput, by: string) {
      const input = ZReviewDecisionInput.parse(raw);
      const status = STATUS[input.decision];
      const settled = await repo.settle(accountId, id, {
        status,
        at: now(),
        by,
        note: input.note || null,
      });
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
      await onSettled?.(
        accountId,
        { ...settled, status },
        {
          alwaysAllow: status === "approved" && Boolean(input.always_allow),
          by,
        },
      );
      return this.detail(accountId, id);
    },

    /** Settles every open item that matches the filters; returns how many. */
    async settleFiltered(
      accountId: string,
      rawFilters: ReviewFilters,
      decision: "approve" | "deny",
      note: string | undefined,
      by: string,
    ): Promise<{ settled: number }> {
      const filters = queueFilters(ZReviewFilters.parse(rawFilters));
      const s = { status: STATUS[decision], at: now(), by, note: note || null };
      let settled = 0;
      for (;;) {
        const rows = await repo.settleMany(accountId, filters, BULK_BATCH, s);
        settled += rows.length;
        onSettledMany?.(
          accountId,
          rows.map((row) => ({ ...row, status: s.status })),
          by,
        );
        if (rows.length < BULK_BATCH) return { settled };
      }
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
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

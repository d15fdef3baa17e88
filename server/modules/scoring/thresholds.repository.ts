/**
 * What the thresholds page reads and writes beyond scoring.repository.ts, in plain SQL on both
 * databases: the preview's counts over a window of screenings, aggregated in the database
 * (the window read through the screenings' (account, time) index, grouped by type, score,
 * what the rules said and truth: a few thousand rows back, however many screenings), and
 * dropping one type's own thresholds in one statement, so two resets at once both hold.
 */
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import type { PreviewGroup, RulesVerdict, Truth } from "./threshold-preview.ts";

export type Window = { from: Date; to: Date };

/**
 * One row per (type, score, what the rules said, truth) of the account's screenings in the
 * window ($1 account, $2 from, $3 to). The rules' verdict is read from the stored row: one an
 * allow-list entry decided keeps its allow; an allow had no reasons; a block or review without
 * the score's reason (risk_score) was the rules' own; only the rest read their reasons (the
 * engine's, as stored) for one that is not the score's. Truth: the newest label, else the
 * review (denied: fraud, approved: legitimate). Held: the score reached block on fewer than
 * two families of evidence and was held at review (decision 030); it would be held under any
 * thresholds. Grouped by hash: a few thousand rows at most.
 */
export const PREVIEW_GROUPS = `
  WITH l AS (
    SELECT DISTINCT ON ("subjectId") "subjectId" AS id, "label" = 'fraud' AS fraud
      FROM "Label"
     WHERE "accountId" = $1 AND "subjectKind" = 'screening' AND "createdAt" >= $2::timestamp
     ORDER BY "subjectId", "createdAt" DESC, "id" DESC
  )
  SELECT s."type", s."score",
         CASE WHEN s."contributions" IS NULL THEN 'unscored'
              WHEN s."allowed" IS NOT NULL THEN 'allowed'
              WHEN s."decision" = 'allow' THEN 'none'
              WHEN NOT ('risk_score' = ANY (s."rules")) THEN s."decision"
              WHEN jsonb_path_exists(s."reasons",
                '$[*] ? (@.rule != "risk_score" && @.action == "block")') THEN 'block'
              WHEN jsonb_path_exists(s."reasons", '$[*] ? (@.rule != "risk_score")') THEN 'review'
              ELSE 'none' END AS rules,
         CASE WHEN l.fraud OR (l.fraud IS NULL AND s."reviewStatus" = 'denied') THEN 'fraud'
              WHEN NOT l.fraud OR (l.fraud IS NULL AND s."reviewStatus" = 'approved')
                THEN 'legitimate' END AS truth,
         coalesce(jsonb_path_exists(s."contributions", '$[*] ? (@.signal == "held_at_review")'), false) AS held,
         count(*)::int AS n
    FROM "Screening" s LEFT JOIN l ON l.id = s."id"
   WHERE s."accountId" = $1 AND s."createdAt" >= $2::timestamp AND s."createdAt" <= $3::timestamp
   GROUP BY 1, 2, 3, 4, 5`;

type GroupRow = {
  type: ScreenType;
  score: number;
  rules: RulesVerdict | "unscored";
  truth: Truth;
  held: boolean;
  n: number;
};

export function createThresholdsRepository(sql: SqlRunner) {
  return {
    /**
     * The window's screenings counted by type, score, the rules' verdict and truth, and how
     * many were stored before the score (unscored: not counted in the groups).
     */
    async previewGroups(accountId: string, window: Window) {
      const rows = await sql.query<GroupRow>(PREVIEW_GROUPS, [
        accountId,
        window.from.toISOString(),
        window.to.toISOString(),
      ]);
      const groups: PreviewGroup[] = [];
      let unscored = 0;
      for (const { type, score, rules, truth, held, n } of rows) {
        if (rules === "unscored") unscored += Number(n);
        else groups.push({ type, score: Number(score), rules, truth, held, count: Number(n) });
      }
      return { groups, unscored };
    },

    /** Drops the account's own thresholds for `type` (nothing to drop: nothing happens). */
    async removeOwn(accountId: string, type: ScreenType, at: Date): Promise<void> {
      await sql.query(
        `UPDATE "ScoreSettings" SET "thresholds" = "thresholds" - $2::text,
                "updatedAt" = $3::timestamp
          WHERE "accountId" = $1 AND "thresholds" ? $2::text`,
        [accountId, type, at.toISOString()],
      );
    },
  };
}

export type ThresholdsRepository = ReturnType<typeof createThresholdsRepository>;

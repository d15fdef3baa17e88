/**
 * The only code that writes ScreeningIdentity.flagged (decision 023). The screening path reads
 * the mark with its counting rows: a linked account is "bad" when one of its screenings was
 * blocked, denied in review or labelled fraud, and that must not cost a join per row.
 */
import type { FlagMarks } from "./links.types.ts";

export function createFlagMarks(): FlagMarks {
  return {
    async mark(tx, accountId, screeningIds, flagged) {
      if (screeningIds.length === 0) return;
      // A screening's counting rows carry its time (`at` = its createdAt), so the `at` index
      // finds them among the few rows of that millisecond; there is no index on screeningId
      // (the table is written on every screening, decision 018).
      await tx.$executeRaw`
        UPDATE "ScreeningIdentity" si SET "flagged" = ${flagged}
        FROM "Screening" s
        WHERE s."accountId" = ${accountId} AND s."id" = ANY (${[...screeningIds]}::text[])
          AND si."at" = s."createdAt" AND si."screeningId" = s."id"
          AND si."accountId" = ${accountId} AND si."flagged" <> ${flagged}`;
    },
  };
}

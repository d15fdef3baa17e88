/** Fills bench:dashboard's accounts with charges straight in the database. */
import type { Database } from "../../../server/db/database.ts";
import { CHUNK, NOW, SPAN_SECONDS } from "./options.ts";

/** `rows` charges for a new account, one INSERT … SELECT per chunk. */
export async function fill(db: Database, accountId: string, rows: number, label: string) {
  await db.prisma.account.create({ data: { id: accountId } });
  const started = performance.now();
  for (let start = 1; start <= rows; start += CHUNK) {
    const end = Math.min(rows, start + CHUNK - 1);
    // One statement per chunk; g drives every column so the data is varied but repeatable.
    // Every 100 charges: 2 blocked by Radar, 2 by a custom rule (refunded), 3 failed,
    // 1 refunded, 1 pending, the rest succeeded; 2% highest risk, 8% elevated.
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "hasCharge", "amount", "amountRefunded",
         "currency", "email", "created", "status", "captured", "refunded", "outcome", "outcomeType",
         "outcomeReason", "riskLevel", "riskScore", "blockedBy", "ruleReason", "actionKind",
         "actionStatus", "livemode", "updatedAt")
       SELECT $1, 'ch_' || $2 || lpad(g::text, 10, '0'), true, 500 + (g::bigint * 7919) % 100000,
         CASE WHEN g % 100 IN (2, 3, 7) THEN 500 + (g::bigint * 7919) % 100000 ELSE 0 END,
         CASE WHEN g % 20 = 0 THEN 'eur' ELSE 'usd' END,
         'user' || (g % 200000) || '@mail' || (g % 7) || '.example',
         $3 - ((g::bigint * $4) / $5)::int,
         CASE WHEN g % 100 IN (0, 1, 4, 5, 6) THEN 'failed' WHEN g % 100 = 8 THEN 'pending' ELSE 'succeeded' END,
         g % 100 NOT IN (0, 1, 4, 5, 6, 8), g % 100 IN (2, 3, 7),
         CASE WHEN g % 100 IN (0, 1, 2, 3) THEN 'blocked' WHEN g % 100 IN (4, 5, 6) THEN 'failed'
              WHEN g % 100 = 7 THEN 'refunded' WHEN g % 100 = 8 THEN 'pending' ELSE 'succeeded' END,
         CASE WHEN g % 100 IN (0, 1) THEN 'blocked' ELSE 'authorized' END,
         CASE WHEN g % 100 IN (0, 1) THEN 'highest_risk_level' WHEN g % 100 IN (4, 5, 6) THEN 'generic_decline' END,
         CASE WHEN g % 50 = 0 THEN 'highest' WHEN g % 50 < 5 THEN 'elevated' ELSE 'normal' END,
         (g * 37) % 100,
         (CASE WHEN g % 100 IN (0, 1) THEN 'stripe' WHEN g % 100 IN (2, 3) THEN 'custom_rule' END)::"BlockedBy",
         CASE WHEN g % 100 IN (2, 3) THEN 'risk score 82 above threshold 70' END,
         CASE WHEN g % 100 IN (2, 3) THEN 'refund' END,
         CASE WHEN g % 100 IN (2, 3) THEN 'done' END,
         false, now()
       FROM generate_series($6::int, $7::int) AS g`,
      accountId,
      label,
      NOW,
      SPAN_SECONDS,
      rows,
      start,
      end,
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stderr.write(
      `\r  ${label}: ${end.toLocaleString()} / ${rows.toLocaleString()} rows (${seconds} s)`,
    );
  }
  process.stderr.write("\n");
}

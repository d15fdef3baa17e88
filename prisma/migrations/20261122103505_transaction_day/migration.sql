-- CreateTable
CREATE TABLE "TransactionDay" (
    "accountId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "allowed" INTEGER NOT NULL DEFAULT 0,
    "blocked" INTEGER NOT NULL DEFAULT 0,
    "refunded" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "TransactionDay_pkey" PRIMARY KEY ("accountId","day","currency","shard")
);

-- AddForeignKey
ALTER TABLE "TransactionDay" ADD CONSTRAINT "TransactionDay_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The rollup follows "Transaction" through statement-level triggers with transition tables:
-- one aggregated upsert per writing statement, whoever the writer is (webhook ingest, history
-- import, demo loader, a bulk INSERT ... SELECT), inside the writer's own transaction. A row
-- counts when it holds a charge ("hasCharge"): allowed when "blockedBy" is null, blocked
-- otherwise, plus its "amountRefunded". An update subtracts each row's old contribution and
-- adds its new one, and keys whose net change is zero are not written, so the many updates
-- that change none of these columns take no rollup lock. The shard (3 bits of a hash of the
-- charge id) only spreads concurrent writers of one account-day over 8 rows: readers sum them.
--
-- The body is an E'' string with every semicolon written as \073: the migration runner used
-- here without the Prisma CLI (adapter-pg's executeScript) splits a script at each semicolon,
-- even inside a $$ body or a comment. The Prisma CLI runs this file unchanged.
CREATE FUNCTION "transaction_day_sync"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "TransactionDay" AS d ("accountId", "day", "currency", "shard", "allowed", "blocked", "refunded")
    SELECT "accountId", "created" / 86400, "currency", hashtext("chargeId") & 7,
           count(*) FILTER (WHERE "blockedBy" IS NULL),
           count(*) FILTER (WHERE "blockedBy" IS NOT NULL),
           sum("amountRefunded")
    FROM new_rows
    WHERE "hasCharge"
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("accountId", "day", "currency", "shard") DO UPDATE
      SET "allowed" = d."allowed" + excluded."allowed",
          "blocked" = d."blocked" + excluded."blocked",
          "refunded" = d."refunded" + excluded."refunded"\073
  ELSIF TG_OP = ''UPDATE'' THEN
    INSERT INTO "TransactionDay" AS d ("accountId", "day", "currency", "shard", "allowed", "blocked", "refunded")
    SELECT "accountId", "day", "currency", "shard",
           coalesce(sum("sign") FILTER (WHERE NOT "isBlocked"), 0),
           coalesce(sum("sign") FILTER (WHERE "isBlocked"), 0),
           sum("sign" * "amountRefunded")
    FROM (
      SELECT "accountId", "created" / 86400 AS "day", "currency", hashtext("chargeId") & 7 AS "shard",
             1 AS "sign", "blockedBy" IS NOT NULL AS "isBlocked", "amountRefunded"::bigint AS "amountRefunded"
      FROM new_rows WHERE "hasCharge"
      UNION ALL
      SELECT "accountId", "created" / 86400, "currency", hashtext("chargeId") & 7,
             -1, "blockedBy" IS NOT NULL, "amountRefunded"
      FROM old_rows WHERE "hasCharge"
    ) AS "change"
    GROUP BY 1, 2, 3, 4
    HAVING coalesce(sum("sign") FILTER (WHERE NOT "isBlocked"), 0) <> 0
        OR coalesce(sum("sign") FILTER (WHERE "isBlocked"), 0) <> 0
        OR sum("sign" * "amountRefunded") <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("accountId", "day", "currency", "shard") DO UPDATE
      SET "allowed" = d."allowed" + excluded."allowed",
          "blocked" = d."blocked" + excluded."blocked",
          "refunded" = d."refunded" + excluded."refunded"\073
  ELSE
    -- A plain UPDATE, not an upsert: when the account itself is being deleted, its rollup
    -- rows may be gone already and must not come back.
    UPDATE "TransactionDay" AS d
    SET "allowed" = d."allowed" - o."allowed",
        "blocked" = d."blocked" - o."blocked",
        "refunded" = d."refunded" - o."refunded"
    FROM (
      SELECT "accountId", "created" / 86400 AS "day", "currency", hashtext("chargeId") & 7 AS "shard",
             count(*) FILTER (WHERE "blockedBy" IS NULL) AS "allowed",
             count(*) FILTER (WHERE "blockedBy" IS NOT NULL) AS "blocked",
             sum("amountRefunded") AS "refunded"
      FROM old_rows
      WHERE "hasCharge"
      GROUP BY 1, 2, 3, 4
    ) AS o
    WHERE d."accountId" = o."accountId" AND d."day" = o."day"
      AND d."currency" = o."currency" AND d."shard" = o."shard"\073
  END IF\073
  RETURN NULL\073
END\073
';

CREATE TRIGGER "Transaction_day_insert" AFTER INSERT ON "Transaction"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_day_sync"();
CREATE TRIGGER "Transaction_day_update" AFTER UPDATE ON "Transaction"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_day_sync"();
CREATE TRIGGER "Transaction_day_delete" AFTER DELETE ON "Transaction"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_day_sync"();

-- Backfill from the rows already stored (the triggers above see only later writes).
INSERT INTO "TransactionDay" ("accountId", "day", "currency", "shard", "allowed", "blocked", "refunded")
SELECT "accountId", "created" / 86400, "currency", hashtext("chargeId") & 7,
       count(*) FILTER (WHERE "blockedBy" IS NULL),
       count(*) FILTER (WHERE "blockedBy" IS NOT NULL),
       sum("amountRefunded")
FROM "Transaction"
WHERE "hasCharge"
GROUP BY 1, 2, 3, 4;

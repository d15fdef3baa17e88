-- Issue 45: the baseline of each account (per 5-minute bucket and per hour) and the alerts a
-- merchant sets on it. (The drop and re-create by the diff of the raw text_pattern_ops indexes are
-- left out, as in search_prefix_indexes.) Every account gets the default alerts a new account
-- gets (server/modules/alerts/defaults.ts), which the test of the defaults compares.
-- CreateTable
CREATE TABLE "SeriesCount" (
    "accountId" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "at" INTEGER NOT NULL,
    "span" INTEGER NOT NULL,
    "n" BIGINT NOT NULL,
    "seen" INTEGER NOT NULL,

    CONSTRAINT "SeriesCount_pkey" PRIMARY KEY ("accountId","series","span","at","key")
);

-- Each flush adds to rows already there: room on their pages for the new versions (HOT updates).
ALTER TABLE "SeriesCount" SET (fillfactor = 70);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "rule" TEXT,
    "series" TEXT,
    "threshold" DOUBLE PRECISION,
    "windowMinutes" INTEGER NOT NULL,
    "cooldownMinutes" INTEGER NOT NULL,
    "email" BOOLEAN NOT NULL,
    "webhook" BOOLEAN NOT NULL,
    "slackCipher" TEXT,
    "slackHint" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "firing" BOOLEAN NOT NULL DEFAULT false,
    "lastFiredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "alertId" TEXT,
    "alertName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "usual" DOUBLE PRECISION,
    "message" TEXT NOT NULL,
    "points" JSONB NOT NULL DEFAULT '[]',
    "delivered" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SeriesCount_span_at_idx" ON "SeriesCount"("span", "at");

-- CreateIndex
CREATE INDEX "AlertRule_accountId_createdAt_idx" ON "AlertRule"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "AlertEvent_accountId_at_idx" ON "AlertEvent"("accountId", "at" DESC);

-- AddForeignKey
ALTER TABLE "SeriesCount" ADD CONSTRAINT "SeriesCount_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertEvent" ADD CONSTRAINT "AlertEvent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertEvent" ADD CONSTRAINT "AlertEvent_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "AlertRule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The default alerts of every existing account (the same as defaults.ts gives a new one).
INSERT INTO "AlertRule" ("id", "accountId", "name", "metric", "mode", "rule", "series", "threshold", "windowMinutes", "cooldownMinutes", "email", "webhook", "createdAt")
SELECT gen_random_uuid()::text, a."id", d.name, d.metric, d.mode, NULL, d.series, d.threshold, d.win, d.cool, true, true, CURRENT_TIMESTAMP + d.ord * interval '1 millisecond'
FROM "Account" a CROSS JOIN (VALUES
  (0, 'Blocks far above usual', 'block_rate', 'spike', NULL, NULL::double precision, 15, 60),
  (1, 'Flagged signups from one network far above usual', 'series_spike', 'spike', 'flagged_signup_network', NULL::double precision, 15, 60),
  (2, 'Review queue waiting over a day', 'review_oldest', 'threshold', NULL, 24::double precision, 15, 1440),
  (3, 'Webhook endpoint failing for an hour', 'webhook_failing', 'threshold', NULL, 60::double precision, 15, 1440)
) AS d(ord, name, metric, mode, series, threshold, win, cool);

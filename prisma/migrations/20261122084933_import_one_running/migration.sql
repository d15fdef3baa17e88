-- Older duplicates of a running import (two clicks at once before this index) are ended first.
UPDATE "ImportJob" AS j SET "status" = 'failed', "error" = 'Interrupted: a newer import took its place.', "finishedAt" = CURRENT_TIMESTAMP
WHERE j."status" = 'running' AND EXISTS (
  SELECT 1 FROM "ImportJob" AS k
  WHERE k."accountId" = j."accountId" AND k."status" = 'running'
    AND (k."startedAt", k."id") > (j."startedAt", j."id"));

-- CreateIndex
CREATE UNIQUE INDEX "ImportJob_one_running" ON "ImportJob"("accountId") WHERE (status = 'running');

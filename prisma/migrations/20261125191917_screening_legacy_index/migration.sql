-- Counting rows from before keyed digests (decision 013): a partial index of them alone, so
-- whether an account still has any is answered at once (decision 016).
CREATE INDEX "ScreeningIdentity_legacy" ON "ScreeningIdentity"("accountId") WHERE (NOT keyed);

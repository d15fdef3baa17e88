-- Counting rows by identity and time, whatever their type (decision 016): a probe over every
-- type was six range scans on (accountId, kind, value, type, at), one per type, and is one
-- now. A typed probe filters the window's rows by type.
CREATE INDEX "ScreeningIdentity_accountId_kind_value_at_idx" ON "ScreeningIdentity"("accountId", "kind", "value", "at");

DROP INDEX "ScreeningIdentity_accountId_kind_value_type_at_idx";

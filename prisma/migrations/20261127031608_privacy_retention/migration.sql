-- Each kind of data's retention, per account (null: the instance's default).
ALTER TABLE "Account" ADD COLUMN     "chargePersonalRetentionDays" INTEGER,
ADD COLUMN     "collectorRetentionDays" INTEGER,
ADD COLUMN     "identityRetentionDays" INTEGER,
ADD COLUMN     "screeningRetentionDays" INTEGER,
ADD COLUMN     "webhookDeliveryRetentionDays" INTEGER;

-- An end user's erasure may rewrite an audit event's target, before and after (replacing the
-- erased values), and nothing else: only inside a transaction that set warden.erasure to on
-- (server/modules/privacy), and never who, when, from where or what was done. Any other
-- UPDATE, any TRUNCATE and any DELETE inside the retention are refused as before.
CREATE OR REPLACE FUNCTION "audit_event_guard"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    RAISE EXCEPTION ''audit events cannot be truncated'' USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  IF TG_OP = ''UPDATE'' THEN
    IF coalesce(current_setting(''warden.erasure'', true), '''') = ''on''
      AND NEW."id" = OLD."id" AND NEW."accountId" = OLD."accountId" AND NEW."at" = OLD."at"
      AND NEW."actorKind" = OLD."actorKind" AND NEW."actorId" IS NOT DISTINCT FROM OLD."actorId"
      AND NEW."actor" = OLD."actor" AND NEW."ip" IS NOT DISTINCT FROM OLD."ip"
      AND NEW."action" = OLD."action" THEN
      RETURN NEW\073
    END IF\073
    RAISE EXCEPTION ''audit events cannot be changed'' USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  IF EXISTS (
    SELECT 1 FROM "Account" a
    WHERE a."id" = OLD."accountId"
      AND OLD."at" > (now() AT TIME ZONE ''UTC'') - make_interval(days => a."auditRetentionDays")
  ) THEN
    RAISE EXCEPTION ''audit events inside their retention cannot be deleted''
      USING ERRCODE = ''insufficient_privilege''\073
  END IF\073
  RETURN OLD\073
END
';

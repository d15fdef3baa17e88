-- The Screenings page's search by part of an email, user id or IP (trigram indexes). pg_trgm
-- ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: a database
-- owner may create it, and the embedded database opens with it (server/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "Screening_email_trgm" ON "Screening" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Screening_userId_trgm" ON "Screening" USING GIN ("userId" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Screening_ip_trgm" ON "Screening" USING GIN ("ip" gin_trgm_ops);

-- One form per address (shared/ip-address.ts): IPv4-mapped IPv6 stored before, such as
-- ::ffff:127.0.0.1 or ::ffff:7f00:1 from a backend passing req.socket.remoteAddress, becomes
-- the IPv4 address it is. The pattern matches only mapped addresses (every stored one was
-- validated as an address), so the cast to inet cannot fail, and host() writes them dotted.
UPDATE "Screening" SET
  "ip" = CASE WHEN "ip" ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$'
    THEN substr(host("ip"::inet), 8) ELSE "ip" END,
  "collectIp" = CASE WHEN "collectIp" ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$'
    THEN substr(host("collectIp"::inet), 8) ELSE "collectIp" END,
  "input" = CASE WHEN "input"->>'ip' ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$'
    THEN jsonb_set("input", '{ip}', to_jsonb(substr(host(("input"->>'ip')::inet), 8))) ELSE "input" END,
  "signals" = CASE WHEN "signals"->>'collect_ip' ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$'
    THEN jsonb_set("signals", '{collect_ip}', to_jsonb(substr(host(("signals"->>'collect_ip')::inet), 8))) ELSE "signals" END
WHERE "ip" ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$'
   OR "collectIp" ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$';

UPDATE "SignalToken" SET "collectIp" = substr(host("collectIp"::inet), 8)
WHERE "collectIp" ~* '^[0:]*:ffff:([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$';

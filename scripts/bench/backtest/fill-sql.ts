/**
 * The statements that fill bench:backtest's account, INSERT … SELECT over generate_series:
 * people, devices, cards and addresses repeat so rules fire.
 */

/** A timestamp from a millisecond expression. */
const at = (msExpr: string) => `(timestamp 'epoch' + (${msExpr}) * interval '1 millisecond')`;

/**
 * Screenings $2..$3 of $6 for account $1, spread back from $4 over $5 ms. Every 20 events:
 * 3 signups, 4 logins, 2 trials, 2 promo redemptions, 1 referral, 3 checkouts, 5 requests.
 */
export const SCREENINGS_SQL = `WITH e AS (
         SELECT g,
           CASE WHEN g % 20 < 3 THEN 'signup' WHEN g % 20 < 7 THEN 'login'
                WHEN g % 20 < 9 THEN 'trial_start' WHEN g % 20 < 11 THEN 'promo_redemption'
                WHEN g % 20 = 11 THEN 'referral' WHEN g % 20 < 15 THEN 'checkout'
                ELSE 'request' END AS type,
           'u' || (g % 300000) AS user_id,
           'user' || (g % 250000) || CASE WHEN g % 97 = 0 THEN '@mailinator.com' ELSE '@example.com' END AS email,
           ((g * 7919) % 200 + 20) || '.' || ((g * 31) % 256) || '.' || ((g * 17) % 256) || '.' || (g % 250 + 1) AS ip,
           'd' || (g % 200000) AS device
         FROM generate_series($2::bigint, $3::bigint) AS g)
       INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip",
         "decision", "score", "rules", "reasons", "monitored", "input")
       SELECT 'scr-' || g, $1, ${at(`$4::bigint - (g::bigint * $5::bigint / $6::bigint)`)}, type,
         user_id, email, ip, 'allow', 0, '{}', '[]', '[]',
         jsonb_strip_nulls(jsonb_build_object(
           'type', type, 'user_id', user_id, 'email', email, 'ip', ip, 'device_id', device,
           'user_agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
           'timezone', 'America/New_York',
           'card_fingerprint', CASE WHEN type = 'checkout' THEN 'fp' || (g % 150000) END,
           'promo_code', CASE WHEN type = 'promo_redemption' THEN 'PROMO' || (g % 50) END,
           'referrer_user_id', CASE WHEN type = 'referral' THEN 'u' || ((g * 13) % 300000) END))
       FROM e`;

/** A SQL expression: the digest Warden stores for `value` of `kind`. */
const digest = (kind: string, value: string) =>
  `substr(encode(sha256(convert_to('${kind}', 'UTF8') || '\\x00'::bytea || convert_to(${value}, 'UTF8')), 'hex'), 1, 32)`;

/** The kinds of seed rows and the SQL of their values (as the screenings above hold them). */
export const SEED_KINDS = [
  ["device", `'d' || (g % 200000)`],
  ["email", `'user' || (g % 250000) || '@example.com'`],
  [
    "ip",
    `((g * 7919) % 200 + 20) || '.' || ((g * 31) % 256) || '.' || ((g * 17) % 256) || '.' || (g % 250 + 1)`,
  ],
] as const;

/** A SQL expression: the keyed digest (decision 013) of `value` under the account key $5. */
const keyedDigest = (kind: string, value: string) =>
  `substr(encode(sha256(convert_to($5::text || ':' || ${digest(kind, value)}, 'UTF8')), 'hex'), 1, 32)`;

/**
 * $4 counting rows of `kind` for account $1 in the 30 days before the window (which ends at $2
 * and spans $3 ms), hashed as Warden hashes them: unkeyed, as stored before keyed digests, or
 * (`keyed`) under the account's digest key $5, as Warden stores them now.
 */
export const seedSql = (kind: string, value: string, keyed = false) => {
  const hash = keyed ? keyedDigest : digest;
  return `INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at",
         "subject", "userId", "blocked", "keyed")
       SELECT $1, 'seed-' || g, '${kind}', ${hash(kind, value)}, 'signup',
         ${at(`$2::bigint - 30 * 86400000::bigint - (g::bigint * $3::bigint / $4::bigint)`)},
         ${hash("user", `'u' || (g % 300000)`)}, ${hash("user", `'u' || (g % 300000)`)}, false,
         ${keyed}
       FROM generate_series(1, $4::bigint) AS g`;
};

/** Charges $5..$6 of $4 for account $1, spread back from $2 over $3 ms. */
export const CHARGES_SQL = `INSERT INTO "Transaction" ("accountId", "chargeId", "hasCharge", "amount", "amountRefunded",
         "currency", "email", "created", "status", "captured", "refunded", "disputed", "outcome",
         "outcomeType", "riskLevel", "riskScore", "cardCountry", "billingCountry",
         "cardFingerprint", "livemode", "updatedAt")
       SELECT $1, 'ch_bench' || lpad(g::text, 10, '0'), true, 500 + (g * 7919) % 100000,
         CASE WHEN g % 100 = 7 THEN 500 + (g * 7919) % 100000 ELSE 0 END, 'usd',
         'user' || (g % 250000) || '@example.com',
         (($2::bigint - (g::bigint * $3::bigint / $4::bigint)) / 1000)::int,
         'succeeded', true, g % 100 = 7, g % 200 = 0,
         CASE WHEN g % 200 = 0 THEN 'disputed' WHEN g % 100 = 7 THEN 'refunded' ELSE 'succeeded' END,
         'authorized', CASE WHEN (g * 37) % 100 > 75 THEN 'elevated' ELSE 'normal' END,
         (g * 37) % 100, CASE WHEN g % 50 = 0 THEN 'NG' ELSE 'US' END, 'US',
         'fp' || (g % 150000), false, now()
       FROM generate_series($5::bigint, $6::bigint) AS g`;

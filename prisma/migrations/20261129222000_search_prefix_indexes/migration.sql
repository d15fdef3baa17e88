-- The Screenings search: user id and IP by prefix indexes instead of trigram ones (issue 44).
-- Both are only ever matched by their start (an IP also whole), which a btree with
-- text_pattern_ops answers with one index entry a screening each (no account in them, as in the
-- trigram indexes: with one, the planner took them for plans that read an account), where their
-- trigram indexes wrote one entry per three-character run (about 15 for a user id, 12 for an
-- address) and merged a pending list of them into the index on the insert that filled it.
-- Addresses are stored in their one lowercase form (decision 021), so the search matches a
-- lowercased start with LIKE, not ILIKE. Screenings without one are not in its index (a btree
-- would index their NULL, where the trigram index did not). (The drop and create of
-- Transaction_accountId_email_idx, raw text_pattern_ops, are left out.)
DROP INDEX "Screening_userId_trgm";
DROP INDEX "Screening_ip_trgm";
CREATE INDEX "Screening_userId_prefix" ON "Screening"("userId" text_pattern_ops) WHERE "userId" IS NOT NULL;
CREATE INDEX "Screening_ip_prefix" ON "Screening"("ip" text_pattern_ops) WHERE ip IS NOT NULL;

-- The trigram index of the email, the one left, merges its pending list at 256 kB instead of 4 MB:
-- the merge runs inside the insert that crossed the limit, and on the embedded database it
-- holds the one thread (three such indexes, 40,000 rows 8 at a time: 9 merges of 143 ms on
-- average, up to 263 ms, and at 128 kB up to 24 ms), a queue of hundreds of requests at 1,000
-- screenings a second.
ALTER INDEX "Screening_email_trgm" SET (gin_pending_list_limit = 256);

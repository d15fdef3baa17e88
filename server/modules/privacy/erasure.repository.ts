/**
 * The code that erases an end user (decision 029): what to change is read first, then one
 * transaction writes by primary key, in bounded statements. Personal fields are cleared, and
 * text and JSON are edited as values (scrub.ts), never as the text of a whole column.
 */
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";
import {
  allowEntriesOf,
  arr,
  auditsOf,
  type Counts,
  chunks,
  countsOf,
  type Db,
  deliveriesAbout,
  identityKinds,
  ids,
  JSON_COLUMNS,
  KEPT_INPUT_KEYS,
  labelsOf,
  REFERRAL_COLUMNS,
  referralsOf,
  TEXT_COLUMNS,
  tokensOf,
} from "./person-rows.repository.ts";
import {
  auditAfter,
  type Matcher,
  matcherOf,
  type PersonValues,
  scrubJson,
  scrubText,
} from "./scrub.ts";

/**
 * One of the account's `slots` erasure slots, held until the transaction ends, on every
 * instance (an advisory lock); false when all are taken.
 */
async function claimSlot(db: Db, accountId: string, slots: number): Promise<boolean> {
  for (let slot = 0; slot < slots; slot++) {
    const [row] = await db.$queryRaw<{ ok: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(hashtext('warden.erasure'), hashtext(${`${accountId}:${slot}`})) AS "ok"`;
    if (row?.ok) return true;
  }
  return false;
}

/** Retried once more on a deadlock or a serialization failure between two erasures. */
function retryable(error: unknown): boolean {
  const text = String((error as { message?: string })?.message ?? error);
  return ["40P01", "40001"].some((code) => text.includes(code)) || /deadlock/i.test(text);
}

/** Sets each row's changed columns from one JSON array of `{ id, ...columns }` (one statement). */
async function updateRows(
  db: Db,
  table: "Screening" | "Transaction" | "StripeAction" | "WebhookDelivery" | "AuditEvent",
  key: "id" | "chargeId",
  accountId: string,
  columns: Record<string, "jsonb" | "text">,
  rows: Record<string, unknown>[],
): Promise<number> {
  let changed = 0;
  for (const chunk of chunks(rows)) {
    const names = Object.keys(columns);
    const sets = names.map((name) => Prisma.raw(`"${name}" = x."${name}"`));
    const shape = names.map((name) => Prisma.raw(`"${name}" ${columns[name]}`));
    changed += await db.$executeRaw`
      UPDATE ${Prisma.raw(`"${table}"`)} AS t SET ${Prisma.join(sets)}
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        AS x(${Prisma.raw(`"${key}" text`)}, ${Prisma.join(shape)})
      WHERE t."accountId" = ${accountId} AND t.${Prisma.raw(`"${key}"`)} = x.${Prisma.raw(`"${key}"`)}`;
  }
  return changed;
}

/** Clears the person's screenings: identities out of their columns, their JSON scrubbed. */
async function eraseScreenings(db: Db, accountId: string, found: string[], m: Matcher) {
  const kept = KEPT_INPUT_KEYS.map((key) => Prisma.sql`${key}::text, "input"->${key}::text`);
  for (const chunk of chunks(found)) {
    const rows = await db.$queryRaw<Record<string, unknown>[]>`
      SELECT "id", "reasons", "monitored", "contributions", "allowed", "unavailable", "linked"
      FROM "Screening" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(chunk)})`;
    await db.$executeRaw`
      UPDATE "Screening" SET "userId" = NULL, "email" = NULL, "ip" = NULL,
        "collectIp" = NULL, "signals" = NULL, "reviewNote" = NULL,
        "input" = jsonb_strip_nulls(jsonb_build_object(${Prisma.join(kept)}))
      WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(chunk)})`;
    await scrubColumns(db, "Screening", accountId, rows, m, JSON_COLUMNS.Screening);
  }
}

/** Rewrites the rows whose JSON or text columns named the person; the rest stay as they are. */
async function scrubColumns(
  db: Db,
  table: "Screening" | "Transaction" | "StripeAction",
  accountId: string,
  rows: Record<string, unknown>[],
  m: Matcher,
  columns: Record<string, "jsonb" | "text">,
) {
  const key = table === "Transaction" ? "chargeId" : "id";
  const changed = rows.flatMap((row) => {
    let any = false;
    const next: Record<string, unknown> = { [key]: row[key] };
    for (const [column, type] of Object.entries(columns)) {
      const value = row[column] ?? null;
      if (type === "text") {
        next[column] = scrubText(value as string | null, m);
        any ||= next[column] !== value;
      } else {
        const scrubbed = scrubJson(value, m);
        next[column] = scrubbed.value;
        any ||= scrubbed.changed;
      }
    }
    return any ? [next] : [];
  });
  return updateRows(db, table, key, accountId, columns, changed);
}

/** What an erasure changed, per kind, and whether its `end_user.erased` event was staged. */
export type Erased = {
  counts: Counts;
  identityKinds: Record<string, number>;
  staged: boolean;
};

/**
 * Erases the person in one transaction (what to change is read before it): their
 * screenings' and charges' personal fields and the values in their text and JSON, the
 * notes on their labels, their allow-list entries (by the values asked for) and collector
 * tokens, the deliveries and audit events that recorded their values, and their user id
 * where another person's screening named them as its referrer; stores the
 * `end_user.erased` event. The counting identities stay. Null when all of the account's
 * `slots` erasure slots are taken (on any instance).
 */
export async function eraseEndUser(
  { prisma, outbox }: { prisma: PrismaClient; outbox?: EventOutbox },
  accountId: string,
  v: PersonValues,
  asked: PersonValues,
  eventsOf: (counts: Counts) => DecisionEvent[],
  slots: number,
): Promise<Erased | null> {
  const m = matcherOf(v);
  // Found first, outside the transaction: on the embedded database a transaction holds
  // the one connection, so every other request waits while it runs. What is read here does
  // not change once written (a delivery's body, an audit event, a screening's input and
  // reasons); the transaction then writes by primary key only.
  const db = prisma as unknown as Db;
  const found = await ids(db, accountId, v, null);
  const deliveries = await deliveriesAbout(db, accountId, v, found);
  const audits = await db.$queryRaw<{ id: string; action: string; after: unknown }[]>`
    SELECT "id", "action", "after" FROM "AuditEvent" WHERE ${auditsOf(accountId, asked, found)}`;
  const referrals = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT "id", "input", "reasons", "monitored", "contributions" FROM "Screening"
    WHERE ${referralsOf(accountId, v, found)}`;
  const allowIds = (
    await db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "AllowEntry" WHERE ${allowEntriesOf(accountId, asked)}`
  ).map((row) => row.id);
  const tokenIds = (
    await db.$queryRaw<
      { id: string }[]
    >`SELECT "id" FROM "SignalToken" WHERE ${tokensOf(accountId, v)}`
  ).map((row) => row.id);
  const kinds = await identityKinds(db, accountId, found.screenings);
  const bodies = deliveries.map((row) => ({
    id: row.id,
    body: JSON.stringify(scrubJson(JSON.parse(row.body), m).value),
  }));
  const afters = audits.map((row) => ({
    id: row.id,
    after: auditAfter(row.action, row.after),
  }));
  const run = () =>
    prisma.$transaction(
      async (tx) => {
        if (!(await claimSlot(tx, accountId, slots))) return null;
        await tx.$queryRaw`SELECT set_config('warden.erasure', 'on', true)`;
        const labels = await tx.$executeRaw`
          UPDATE "Label" SET "note" = NULL WHERE ${labelsOf(accountId, found)}`;
        await eraseScreenings(tx, accountId, found.screenings, m);
        for (const chunk of chunks(found.charges)) {
          const rows = await tx.$queryRaw<Record<string, unknown>[]>`
            SELECT "chargeId", "ruleReason", "reviewReasons", "actionError" FROM "Transaction"
            WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
          await tx.$executeRaw`
            UPDATE "Transaction" SET "email" = NULL, "cardFingerprint" = NULL,
              "reviewNote" = NULL, "personalClearedAt" = (now() AT TIME ZONE 'UTC')
            WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
          await scrubColumns(tx, "Transaction", accountId, rows, m, TEXT_COLUMNS.Transaction);
          const actions = await tx.$queryRaw<Record<string, unknown>[]>`
            SELECT "id", "reason", "lastError" FROM "StripeAction"
            WHERE "accountId" = ${accountId} AND "chargeId" = ANY(${arr(chunk)})`;
          await scrubColumns(tx, "StripeAction", accountId, actions, m, TEXT_COLUMNS.StripeAction);
        }
        const allowEntries = await tx.$executeRaw`
          DELETE FROM "AllowEntry" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(allowIds)})`;
        const tokens = await tx.$executeRaw`
          DELETE FROM "SignalToken" WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(tokenIds)})`;
        await updateRows(tx, "WebhookDelivery", "id", accountId, { body: "text" }, bodies);
        await updateRows(tx, "AuditEvent", "id", accountId, { after: "jsonb" }, afters);
        await scrubColumns(tx, "Screening", accountId, referrals, m, REFERRAL_COLUMNS);
        const counts = countsOf(
          found,
          { labels, allowEntries, tokens, deliveries: deliveries.length, audits: audits.length },
          kinds,
        );
        const events = eventsOf(counts);
        if (outbox && events.length > 0) await outbox.stage(tx, accountId, events);
        return { counts, identityKinds: kinds, staged: Boolean(outbox) && events.length > 0 };
      },
      { maxWait: 30_000, timeout: 600_000 },
    );
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= 3 || !retryable(error)) throw error;
    }
  }
}

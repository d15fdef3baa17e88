/**
 * The reads an export, a preview and an erasure of an end user share (decision 029): their
 * screenings' and charges' ids, their counting identities per kind, the deliveries about them.
 * Each takes the client or a transaction it runs on.
 */
import { Prisma } from "../../db/generated/client.ts";
import { deliveryIsAbout } from "./delivery-about.ts";
import {
  arr,
  chargesOf,
  deliveryCandidates,
  type Found,
  limitOf,
  screeningsOf,
} from "./end-users.sql.ts";
import type { PersonValues } from "./scrub.ts";

/** The Prisma client, or a transaction on it. */
export type Db = Prisma.TransactionClient;

/** The person's screenings' and charges' ids, newest first, at most `limit` of each. */
export async function ids(db: Db, accountId: string, v: PersonValues, limit: number | null) {
  // One after the other: `db` may be a transaction's one connection.
  const screenings = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Screening" WHERE ${screeningsOf(accountId, v)}
    ORDER BY "createdAt" DESC, "id" DESC ${limitOf(limit)}`;
  const charges = await db.$queryRaw<{ id: string }[]>`
    SELECT "chargeId" AS "id" FROM "Transaction" WHERE ${chargesOf(accountId, v)}
    ORDER BY "created" DESC, "chargeId" DESC ${limitOf(limit)}`;
  return { screenings: screenings.map((r) => r.id), charges: charges.map((r) => r.id) };
}

/** The person's counting identities, per kind. */
export async function identityKinds(db: Db, accountId: string, screenings: string[]) {
  if (screenings.length === 0) return {};
  // Found through the time they share with their screening ("at" is indexed; the screening
  // id is not): a scan of the account's identities would read hundreds of thousands of rows.
  const times = (
    await db.$queryRaw<{ t: string }[]>`
      SELECT DISTINCT to_char("createdAt", 'YYYY-MM-DD HH24:MI:SS.MS') AS "t" FROM "Screening"
      WHERE "accountId" = ${accountId} AND "id" = ANY(${arr(screenings)})`
  ).map((row) => row.t);
  const rows = await db.$queryRaw<{ kind: string; n: number }[]>`
    SELECT "kind", count(*)::int AS "n" FROM "ScreeningIdentity"
    WHERE "at" = ANY(${arr(times)}::timestamp(3)[]) AND "accountId" = ${accountId}
      AND "screeningId" = ANY(${arr(screenings)})
    GROUP BY "kind" ORDER BY "kind"`;
  return Object.fromEntries(rows.map((row) => [row.kind, row.n]));
}

/** The deliveries about the person (deliveryIsAbout), newest first, with their bodies. */
export async function deliveriesAbout(db: Db, accountId: string, v: PersonValues, found: Found) {
  const rows = await db.$queryRaw<{ id: string; body: string }[]>`
    SELECT "id", "body" FROM "WebhookDelivery" WHERE ${deliveryCandidates(accountId, v, found)}
    ORDER BY "createdAt" DESC`;
  return rows.filter((row) => deliveryIsAbout(row.body, v, found));
}

export const sum = (kinds: Record<string, number>) =>
  Object.values(kinds).reduce((total, n) => total + n, 0);

/** How many of `table`'s rows match `where`. */
export const count = async (db: Db, table: string, where: Prisma.Sql) =>
  (
    await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS "n" FROM ${Prisma.raw(`"${table}"`)} WHERE ${where}`
  )[0]?.n ?? 0;

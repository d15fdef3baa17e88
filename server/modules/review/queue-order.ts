/**
 * The queue's one order over screenings and charges: oldest first, a charge before a
 * screening of the same millisecond, then each table's own id order. Pure: the cursor a page
 * ends on, where each table's next page starts from it, and the merge of their pages.
 */
import type { ReviewFilters, ReviewKind } from "../../../shared/schemas/review.ts";
import { cursorTime, notACursor } from "../../lib/cursor-time.ts";
import type { ChargeKeyset } from "./charge-review.repository.ts";
import type { ScreeningKeyset } from "./review.repository.ts";

/** Where an item sits in the queue: its time (ms), kind and id. */
export type QueuePosition = { kind: ReviewKind; at: number; id: string };

const RANK: Record<ReviewKind, number> = { charge: 0, screening: 1 };
const ID = { screening: /^[0-9a-f-]{36}$/, charge: /^[A-Za-z0-9_]{1,100}$/ };
/** A charge's `created` is a 32-bit column of Unix seconds: no charge is later than this. */
const LAST_CHARGE_SECOND = 2 ** 31 - 1;

export function encodeCursor(p: QueuePosition): string {
  return Buffer.from(`${new Date(p.at).toISOString()}|${p.kind}|${p.id}`).toString("base64url");
}

/**
 * A cursor this server gave out; one without a kind (before charges joined) is a screening's.
 * Its time is one a row can have (cursor-time.ts), and a charge's fits the 32-bit column.
 */
export function decodeCursor(cursor: string): QueuePosition {
  const parts = Buffer.from(cursor, "base64url").toString().split("|");
  const [time, kind, id] = parts.length === 2 ? [parts[0], "screening", parts[1]] : parts;
  const at = cursorTime(time);
  if (
    parts.length > 3 ||
    (kind !== "screening" && kind !== "charge") ||
    !id ||
    at === undefined ||
    !ID[kind].test(id) ||
    (kind === "charge" && at / 1000 > LAST_CHARGE_SECOND)
  ) {
    throw notACursor();
  }
  return { kind, at, id };
}

/** Where each table's page starts after the cursor's item. */
export function keysetsAfter(p: QueuePosition): {
  screenings: ScreeningKeyset;
  charges: ChargeKeyset;
} {
  return p.kind === "screening"
    ? {
        screenings: { createdAt: new Date(p.at), id: p.id },
        // A charge of the same millisecond came before this screening: only later ones (and
        // none is later than the column holds).
        charges: { createdAbove: Math.min(Math.floor(p.at / 1000), LAST_CHARGE_SECOND) },
      }
    : {
        screenings: { createdFrom: new Date(p.at) },
        charges: { created: Math.floor(p.at / 1000), chargeId: p.id },
      };
}

/** The first `limit` items of two pages, each already in its table's order. */
export function mergeOldestFirst<T extends QueuePosition>(a: T[], b: T[], limit: number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (x && (!y || x.at < y.at || (x.at === y.at && RANK[x.kind] <= RANK[y.kind]))) {
      out.push(x);
      i++;
    } else if (y) {
      out.push(y);
      j++;
    }
  }
  return out;
}

/**
 * Which tables the filters read: the kind's, and screenings only under a type filter (a
 * charge has no screening type, so a type filter with kind charge matches nothing).
 */
export function kindsOf(f: Pick<ReviewFilters, "kind" | "type">): Record<ReviewKind, boolean> {
  return {
    screening: f.kind !== "charge",
    charge: f.kind !== "screening" && !f.type,
  };
}

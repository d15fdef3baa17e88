/**
 * The console's history of stored screenings: the latest decisions, filtered and searched, and
 * counts. Only reads; the decision path that answers a screening is screening.service.ts.
 */
import { isIP } from "node:net";
import { canonicalIp } from "../../../shared/ip-address.ts";
import type {
  ScreeningCounts,
  ScreeningListInput,
  ScreeningRow,
} from "../../../shared/schemas/screening.ts";
import { ZScreeningListInput } from "../../../shared/schemas/screening.ts";
import type { Screening } from "../../db/generated/client.ts";
import { cursorTime, notACursor } from "../../lib/cursor-time.ts";
import { lookupIp } from "./features/geo.ts";
import { consumerNetwork } from "./probes.ts";
import type { ScreeningRepository, ScreeningSearch } from "./screening.repository.ts";

const DAY_MS = 86_400_000;

/** A stored screening as the console and the API show it (the history, a review's detail). */
export function screeningRowOf(row: Screening): ScreeningRow {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    type: row.type as ScreeningRow["type"],
    user_id: row.userId,
    email: row.email,
    ip: row.ip,
    collect_ip: row.collectIp,
    decision: row.decision as ScreeningRow["decision"],
    score: row.score,
    contributions: (row.contributions ?? []) as ScreeningRow["contributions"],
    reasons: row.reasons as ScreeningRow["reasons"],
    monitored: row.monitored as ScreeningRow["monitored"],
    unavailable: (row.unavailable ?? []) as ScreeningRow["unavailable"],
    allowed: (row.allowed ?? null) as ScreeningRow["allowed"],
  };
}

/**
 * Whether a stored screening's address is a consumer network's (home, mobile, office, campus:
 * shared by its NAT), as the screening path decided when it counted it: such an IP links no
 * accounts (decision 023).
 */
export function consumerAddress(address: string): boolean {
  return consumerNetwork({ geo: lookupIp(address) });
}

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

/** A cursor this server gave out, its time one a row can have (cursor-time.ts). */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id, extra] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = cursorTime(time);
  if (at === undefined || !id || extra !== undefined || !/^[0-9a-f-]{36}$/.test(id)) {
    throw notACursor();
  }
  return { createdAt: new Date(at), id };
}

/**
 * A whole IP address finds that address in its stored form (::ffff:127.0.0.1 is 127.0.0.1);
 * any other text finds part of an email, the start of a user id or of an IP
 * (screening.repository.ts searchWhere).
 */
function searchOf(text: string | undefined): ScreeningSearch | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (isIP(value)) return { ip: canonicalIp(value) };
  return { text: value };
}

export function createScreeningHistoryService({
  repo,
  now,
}: {
  repo: ScreeningRepository;
  now: () => Date;
}) {
  return {
    async list(accountId: string, raw: ScreeningListInput) {
      const input = ZScreeningListInput.parse(raw);
      const rows = await repo.list(accountId, {
        limit: input.limit,
        decision: input.decision,
        type: input.type,
        rule: input.rule,
        search: searchOf(input.search),
        after: input.cursor ? decodeCursor(input.cursor) : undefined,
      });
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      return {
        items: page.map(screeningRowOf),
        nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Decisions in the last 24 hours. */
    async counts(accountId: string): Promise<ScreeningCounts> {
      const byDecision = await repo.countsSince(accountId, new Date(now().getTime() - DAY_MS));
      return {
        allow: byDecision.allow ?? 0,
        review: byDecision.review ?? 0,
        block: byDecision.block ?? 0,
      };
    },
  };
}

export type ScreeningHistoryService = ReturnType<typeof createScreeningHistoryService>;

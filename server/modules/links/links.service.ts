/**
 * Linked accounts (decision 023), read side: for one stored screening, the other accounts that
 * shared its device, normalized email, card, referrer or (off consumer networks) IP in the 30
 * days before it, one hop, bounded as the screening path bounds its summary (engine/links.ts):
 * each identity's newest rows only, hubs left out, at most 50 accounts. Not on the screening
 * path: a detail reads it when a person or the merchant's backend asks.
 */
import type { LinkedAccount } from "../../../shared/schemas/review.ts";
import {
  type LinkCount,
  type LinkedSummary,
  ZLinkedSummary,
} from "../../../shared/schemas/screening.ts";
import { LINK_WINDOW, SUBJECT_ROWS } from "../../engine/links.ts";
import { groupLinks, linkedAccountsOf } from "./linked-accounts.ts";
import type { LinksRepository } from "./links.repository.ts";
import type { LinkQuery } from "./links.types.ts";

export type { FlagMarks, LinkProbe, LinkQuery } from "./links.types.ts";

/**
 * A screening's stored summary; null when there is none, or when it is not one this version
 * reads (the detail shows the list then, rather than failing the answer's validation).
 */
export function storedSummary(value: unknown): LinkedSummary | null {
  const parsed = ZLinkedSummary.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function createLinksService({ repo }: { repo: LinksRepository }) {
  return {
    /** The accounts linked to one screening, newest first, and its identities that are hubs. */
    async accounts(
      accountId: string,
      q: LinkQuery,
    ): Promise<{ accounts: LinkedAccount[]; hubs: LinkCount[] }> {
      const rows = await repo.rows(accountId, {
        probes: q.probes,
        since: new Date(q.at.getTime() - LINK_WINDOW),
        until: q.at,
        except: q.screeningId,
        key: q.key,
        perProbe: SUBJECT_ROWS,
      });
      const { accounts, hubs } = groupLinks(rows, q.self);
      const screenings = await repo.screenings(
        accountId,
        accounts.flatMap((account) => account.screeningIds),
      );
      return { accounts: linkedAccountsOf(accounts, screenings), hubs };
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;

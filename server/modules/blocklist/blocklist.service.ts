/** Block list use cases: read (empty by default) and replace the whole list. */
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { BlocklistRepository } from "./blocklist.repository.ts";

export function createBlocklistService(repo: BlocklistRepository) {
  return {
    get(accountId: string): Promise<Blocklist> {
      return repo.findOrCreate(accountId);
    },

    put(accountId: string, blocklist: Blocklist): Promise<Blocklist> {
      return repo.save(accountId, blocklist);
    },
  };
}

export type BlocklistService = ReturnType<typeof createBlocklistService>;

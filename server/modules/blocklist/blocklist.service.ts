/** Block list use cases: read (empty by default) and replace the whole list. */
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { BlocklistRepository } from "./blocklist.repository.ts";

type Deps = { repo: BlocklistRepository; onChange(accountId: string): void };

export function createBlocklistService({ repo, onChange }: Deps) {
  return {
    get(accountId: string): Promise<Blocklist> {
      return repo.findOrCreate(accountId);
    },

    async put(accountId: string, blocklist: Blocklist): Promise<Blocklist> {
      const saved = await repo.save(accountId, blocklist);
      onChange(accountId);
      return saved;
    },
  };
}

export type BlocklistService = ReturnType<typeof createBlocklistService>;

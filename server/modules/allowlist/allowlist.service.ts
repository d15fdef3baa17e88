/**
 * Allow list use cases: list, add (or renew), remove; the policy reads the entries in force.
 * Every change tells the policy cache, like the block list does.
 */
import {
  type AllowEntryInput,
  type AllowEntryView,
  ZAllowEntryInput,
} from "../../../shared/schemas/allow-list.ts";
import { AppError } from "../../lib/app-error.ts";
import type { AllowListRepository } from "./allowlist.repository.ts";

type Deps = { repo: AllowListRepository; now: () => Date; onChange(accountId: string): void };

export function createAllowListService({ repo, now, onChange }: Deps) {
  return {
    list: repo.list,

    /** What the policy loads: the entries not expired now. */
    active(accountId: string) {
      return repo.active(accountId, now());
    },

    async add(accountId: string, raw: AllowEntryInput, addedBy: string): Promise<AllowEntryView> {
      const input = ZAllowEntryInput.parse(raw);
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && expiresAt <= now()) {
        throw new AppError("BAD_REQUEST", "expires_at: must be in the future", {
          issues: [{ path: "expires_at", message: "must be in the future" }],
        });
      }
      const saved = await repo.upsert(
        accountId,
        { kind: input.kind, value: input.value, note: input.note || null, addedBy, expiresAt },
        now(),
      );
      onChange(accountId);
      return saved;
    },

    async remove(accountId: string, id: string): Promise<void> {
      if (!(await repo.remove(accountId, id))) {
        throw new AppError("NOT_FOUND", "No such allow-list entry in this account.");
      }
      onChange(accountId);
    },
  };
}

export type AllowListService = ReturnType<typeof createAllowListService>;

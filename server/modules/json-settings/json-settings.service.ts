/**
 * Use cases of a whole-object JSON setting (rules, templates): read merged over the defaults,
 * replace the whole object. Every change is announced, so cached policies are reloaded.
 */
import type { Prisma } from "../../db/generated/client.ts";
import type { JsonSettingsRepository } from "./json-settings.repository.ts";

type Deps<T> = {
  repo: JsonSettingsRepository;
  defaults: T;
  /** Merges what is stored over the defaults, dropping what the schema no longer knows. */
  fromStored(stored: unknown): T;
  onChange(accountId: string): void;
};

export function createJsonSettingsService<T extends Prisma.InputJsonObject>({
  repo,
  defaults,
  fromStored,
  onChange,
}: Deps<T>) {
  return {
    async get(accountId: string): Promise<T> {
      return fromStored(await repo.findOrCreate(accountId, defaults));
    },

    async put(accountId: string, values: T): Promise<T> {
      await repo.save(accountId, values);
      onChange(accountId);
      return fromStored(values);
    },
  };
}

export type JsonSettingsService<T> = {
  get(accountId: string): Promise<T>;
  put(accountId: string, values: T): Promise<T>;
};

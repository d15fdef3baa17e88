/** Template flag use cases: read merged over defaults, replace the whole object. */
import {
  DEFAULT_TEMPLATES,
  type Templates,
  templatesFromStored,
} from "../../../shared/schemas/templates.ts";
import type { TemplatesRepository } from "./templates.repository.ts";

export function createTemplatesService(repo: TemplatesRepository) {
  return {
    async get(accountId: string): Promise<Templates> {
      return templatesFromStored(await repo.findOrCreate(accountId, DEFAULT_TEMPLATES));
    },

    async put(accountId: string, templates: Templates): Promise<Templates> {
      await repo.save(accountId, templates);
      return templatesFromStored(templates);
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;

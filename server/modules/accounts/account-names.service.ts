/** The name an account's owner (or an admin) gives it, read and set from the Team page. */
import type { AccountNameView } from "../../../shared/schemas/team.ts";
import { accountName } from "../../db/account-name.ts";
import { AppError } from "../../lib/app-error.ts";
import type { AccountsRepository } from "./accounts.repository.ts";

export function createAccountNamesService(repo: AccountsRepository) {
  async function get(accountId: string): Promise<AccountNameView> {
    const naming = await repo.naming(accountId);
    if (!naming) throw new AppError("NOT_FOUND", "No such account.");
    return { name: naming.name, shown: accountName(naming) };
  }
  return {
    get,
    /** Sets the name (empty: the app's name, then the first owner's email, stand in). */
    async put(accountId: string, name: string): Promise<AccountNameView> {
      await repo.setName(accountId, name);
      return get(accountId);
    },
  };
}

export type AccountNamesService = ReturnType<typeof createAccountNamesService>;

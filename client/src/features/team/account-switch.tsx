/**
 * The header's account switch, for a person in more than one account: picking one makes the
 * session act there, forgets every answer cached for the other account, and opens its
 * dashboard. Hidden for a person with one account.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { ROLE_LABELS } from "../../../../shared/team/roles.ts";
import { useRefreshSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./account-switch.css";

export function AccountSwitch() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const accounts = useQuery(trpc.auth.accounts.queryOptions());
  const switchAccount = useMutation(
    trpc.auth.switchAccount.mutationOptions({
      onSuccess: async () => {
        navigate("/homepage/dashboard");
        await refreshSession();
      },
    }),
  );
  const list = accounts.data ?? [];
  if (list.length < 2) return null;
  const current = list.find((account) => account.current)?.account_id ?? "";
  return (
    <label className="account-switch">
      <select
        name="account"
        aria-label="Account"
        value={current}
        disabled={switchAccount.isPending}
        onChange={(event) => switchAccount.mutate({ account_id: event.target.value })}
      >
        {list.map((account) => (
          <option key={account.account_id} value={account.account_id}>
            {account.name} ({ROLE_LABELS[account.role]})
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * An account of one's own: a person who joined through an invitation has none (decision 037)
 * until they ask here. The new account is theirs to own, and the console opens it.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { ACCOUNT_NAME_MAX } from "../../../../shared/schemas/auth.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useRefreshSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";

export function OwnAccountSection() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.auth.createAccount.mutationOptions({
      onSuccess: async () => {
        // The session acts in the new account now: every cached answer was the other one's.
        await refreshSession();
        navigate("/homepage/dashboard");
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name });
  }
  return (
    <section className="panel tm-panel" aria-labelledby="own-account-title">
      <h2 id="own-account-title">An account of your own</h2>
      <p className="config-note">
        For another app of yours: a new Warden account that you own, with its own keys, rules and
        team. You stay a member of this one and switch between them in the header.
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Account name
          <input
            name="own_account_name"
            value={name}
            maxLength={ACCOUNT_NAME_MAX}
            required
            placeholder="Your app's name"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <button type="submit" className="secondary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Creating…" : "Create the account"}
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </section>
  );
}

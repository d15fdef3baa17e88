/**
 * The account's name (issue 47): what the header's switch, invitations and mails call it.
 * Empty, the app's name from Settings, then the first owner's email, stand in. Whoever may
 * configure the account may change it; the rest see it read-only.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { ACCOUNT_NAME_MAX } from "../../../../shared/schemas/auth.ts";
import type { AccountNameView } from "../../../../shared/schemas/team.ts";
import { Editable } from "../../components/editable.tsx";
import { ErrorMessage } from "../../components/error-message.tsx";
import { Loaded } from "../../components/loaded.tsx";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";

export function AccountNameSection() {
  const trpc = useTRPC();
  const name = useQuery(trpc.team.accountName.queryOptions());
  return (
    <section className="panel tm-panel" aria-labelledby="account-name-title">
      <h2 id="account-name-title">Account name</h2>
      <Loaded query={name} what="the account's name">
        {(saved) => (
          <Editable need="configure">
            <AccountNameForm saved={saved} />
          </Editable>
        )}
      </Loaded>
    </section>
  );
}

function AccountNameForm({ saved }: { saved: AccountNameView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(saved.name);
  useEffect(() => setName(saved.name), [saved]);
  const put = useMutation(
    trpc.team.renameAccount.mutationOptions({
      onSuccess: async (next) => {
        queryClient.setQueryData(trpc.team.accountName.queryKey(), next);
        // The header's switch names the account too.
        await queryClient.invalidateQueries({ queryKey: trpc.auth.accounts.queryKey() });
      },
    }),
  );
  const error = fieldErrors(put.error).name;

  function submit(event: FormEvent) {
    event.preventDefault();
    put.mutate({ name });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Account name">
      <label>
        Name
        <input
          name="account_name"
          value={name}
          maxLength={ACCOUNT_NAME_MAX}
          placeholder={saved.shown}
          aria-invalid={error ? true : undefined}
          aria-describedby="account-name-note"
          onChange={(event) => {
            setName(event.target.value);
            put.reset();
          }}
        />
        {error ? (
          <span className="field-error" id="account-name-note">
            {error}
          </span>
        ) : (
          <small id="account-name-note">
            Shown in the account switch, invitations and emails. Empty: the app's name from
            Settings, else the owner's email.
          </small>
        )}
      </label>
      <div>
        <button type="submit" disabled={put.isPending}>
          {put.isPending ? "Saving…" : "Save account name"}
        </button>
      </div>
      {put.isSuccess && (
        <p className="message success" role="status">
          Account name saved.
        </p>
      )}
      <ErrorMessage error={!error && put.error} />
    </form>
  );
}

/**
 * Deleting the account, in two steps: a button that opens the form, then the account's name
 * (or the word "delete") and the password typed again. Once deleted, the session has ended:
 * the console goes to the login page, which says what happened.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorMessage } from "../../components/error-message.tsx";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";

/** Where the console goes once the account is deleted. */
export const DELETED_URL = "/login?notice=account-deleted";

export function DeleteAccount() {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState("");
  const [password, setPassword] = useState("");
  const remove = useMutation(
    trpc.account.delete.mutationOptions({
      // The session has ended: a fresh load of the login page (nothing cached survives it).
      onSuccess: () => window.location.replace(DELETED_URL),
    }),
  );
  const errors = fieldErrors(remove.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    remove.mutate({ confirm, password });
  }

  return (
    <div className="stack account-delete">
      <h3>Delete account</h3>
      <p className="config-note">
        Deletes this account and everything it holds: screenings, charges, lists, keys, webhook
        endpoints, the audit log and the team. Members who belong to other accounts keep those.
        Stripe is not told; nothing can be restored.
      </p>
      {!open ? (
        <div>
          <button type="button" className="danger" onClick={() => setOpen(true)}>
            Delete this account…
          </button>
        </div>
      ) : (
        <form className="stack" onSubmit={submit} noValidate aria-label="Delete account">
          <label>
            Type the account's name, or the word "delete"
            <input
              name="confirm"
              autoComplete="off"
              value={confirm}
              aria-invalid={errors.confirm ? true : undefined}
              onChange={(event) => setConfirm(event.target.value)}
            />
            {errors.confirm && <span className="field-error">{errors.confirm}</span>}
          </label>
          <label>
            Your password
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              aria-invalid={errors.password ? true : undefined}
              onChange={(event) => setPassword(event.target.value)}
            />
            {errors.password && <span className="field-error">{errors.password}</span>}
          </label>
          <div className="account-actions">
            <button
              type="submit"
              className="danger"
              disabled={remove.isPending || !confirm || !password}
            >
              {remove.isPending ? "Deleting…" : "Delete account permanently"}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
          <ErrorMessage error={!errors.confirm && !errors.password && remove.error} />
        </form>
      )}
    </div>
  );
}

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../../shared/schemas/auth.ts";
import { PasswordField } from "../../components/text-field.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";

export function ChangePasswordForm() {
  const trpc = useTRPC();
  const [currentPassword, setCurrentPassword] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => {
        setCurrentPassword("");
        setPassword("");
        setConfirm("");
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    change.reset();
    const problem = password !== confirm ? MESSAGES.passwordsDoNotMatch : null;
    setFormError(problem);
    if (!problem) change.mutate({ currentPassword, password });
  }

  return (
    <form onSubmit={submit} aria-labelledby="change-password-title" className="stack panel">
      <h2 id="change-password-title">Change Password</h2>
      <PasswordField
        label="Current password"
        name="current-password"
        value={currentPassword}
        onValue={setCurrentPassword}
      />
      <PasswordField
        fresh
        label="New password"
        name="new-password"
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
        value={password}
        onValue={setPassword}
      />
      <PasswordField
        fresh
        label="Confirm new password"
        name="confirm-password"
        value={confirm}
        onValue={setConfirm}
      />
      <button type="submit" disabled={change.isPending}>
        {change.isPending ? "Updating..." : "Update Password"}
      </button>
      {change.isSuccess && (
        <p className="message success" role="status">
          {change.data.message}
        </p>
      )}
      {(formError || change.error) && (
        <p className="message error" role="alert">
          {formError ?? errorMessage(change.error)}
        </p>
      )}
    </form>
  );
}

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { MESSAGES, RESET_REDIRECT_MS } from "../../../../shared/messages.ts";
import { PASSWORD_MIN } from "../../../../shared/schemas/auth.ts";
import { PasswordField } from "../../components/text-field.tsx";
import { useRefreshSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AuthLayout, FormMessage } from "./auth-layout.tsx";
import { useOnce } from "./use-once.ts";

/** The client-side checks of spec §5, in order; null when the form may be sent. */
export function resetFormError(password: string, confirm: string): string | null {
  if (!password || !confirm) return MESSAGES.resetFieldsRequired;
  if (password !== confirm) return MESSAGES.passwordsDoNotMatch;
  if (password.length < PASSWORD_MIN) {
    return `Password must be at least ${PASSWORD_MIN} characters.`;
  }
  return null;
}

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const tokenHash = params.get("tokenHash") ?? "";
  const email = params.get("email") ?? "";
  const wellFormed = params.get("type") === "recovery" && tokenHash !== "" && email !== "";

  if (!wellFormed) {
    return (
      <AuthLayout title={MESSAGES.invalidLink}>
        <p>{MESSAGES.invalidLinkBody}</p>
        <Link to="/forgot-password">Request a new reset link</Link>
      </AuthLayout>
    );
  }
  return <ResetFlow tokenHash={tokenHash} email={email} />;
}

function ResetFlow({ tokenHash, email }: { tokenHash: string; email: string }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const check = useMutation(trpc.auth.checkResetLink.mutationOptions());
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [formError, setFormError] = useState<string | null>(null);

  useOnce(() => check.mutate({ tokenHash, email }));

  useEffect(() => {
    if (!reset.isSuccess) return;
    void refreshSession();
    const timer = setTimeout(() => navigate("/login"), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate, refreshSession]);

  if (check.isIdle || check.isPending) {
    return (
      <AuthLayout title="Reset your password">
        <p role="status">{MESSAGES.verifyingLink}</p>
      </AuthLayout>
    );
  }
  if (check.isError || !check.data?.valid) {
    return (
      <AuthLayout title={MESSAGES.invalidLinkTitle}>
        <p role="alert">{MESSAGES.invalidLinkBody}</p>
        <Link to="/forgot-password">Request a new reset link</Link>
      </AuthLayout>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthLayout title="Reset your password">
        <FormMessage kind="success" text={MESSAGES.resetDone} />
      </AuthLayout>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = resetFormError(password, confirm);
    setFormError(problem);
    if (!problem) reset.mutate({ tokenHash, email, password });
  }

  return (
    <AuthLayout title="Reset your password">
      <form onSubmit={submit} aria-label="Choose a new password" className="stack" noValidate>
        <PasswordField
          fresh
          required={false}
          label="New password"
          name="password"
          value={password}
          onValue={setPassword}
        />
        <PasswordField
          fresh
          required={false}
          label="Confirm new password"
          name="confirm"
          value={confirm}
          onValue={setConfirm}
        />
        <button type="submit" disabled={reset.isPending}>
          {reset.isPending ? "Saving..." : "Update Password"}
        </button>
        <FormMessage kind="error" text={formError ?? (reset.error && errorMessage(reset.error))} />
      </form>
    </AuthLayout>
  );
}

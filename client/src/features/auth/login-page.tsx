/**
 * Logging in: the password, then, for a person with two-factor sign-in, the code from their
 * authenticator app (or a recovery code). Which step shows follows the session (auth.me), so a
 * reload mid-sign-in comes back to the code. An account that requires two-factor sign-in of a
 * person without it has them set it up here before the console opens.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ACCOUNT_DELETE_TEXT } from "../../../../shared/schemas/account-config.ts";
import { EmailField, PasswordField } from "../../components/text-field.tsx";
import { useRefreshSession, useSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { EnrolTwoFactor } from "../two-factor/enrol-two-factor.tsx";
import { SecondFactorForm } from "../two-factor/second-factor-form.tsx";
import { AuthLayout, FormMessage } from "./auth-layout.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";
import { nextPath } from "./next-path.ts";

const CONSOLE = "/homepage/dashboard";

export default function LoginPage() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const { user, isLoading } = useSession();
  const [search] = useSearchParams();
  const logout = useMutation(
    trpc.auth.logout.mutationOptions({
      onSettled: async () => {
        await refreshSession();
        navigate("/login", { replace: true });
      },
    }),
  );

  async function enterConsole() {
    await refreshSession();
    navigate(nextPath(search, CONSOLE), { replace: true });
  }

  if (isLoading) return <p className="loading">Loading...</p>;

  if (user?.pendingTwoFactor) {
    return (
      <AuthLayout title="Two-factor sign-in">
        <SecondFactorForm onSignedIn={enterConsole} onLogOut={() => logout.mutate()} />
      </AuthLayout>
    );
  }

  if (user?.mustEnrolTwoFactor) {
    return (
      <AuthLayout title="Set up two-factor sign-in">
        <p>
          This account requires two-factor sign-in. Set it up with an authenticator app to open the
          console.
        </p>
        <EnrolTwoFactor email={user.email} onDone={enterConsole} />
        <p>
          <button type="button" className="link-like" onClick={() => logout.mutate()}>
            Log out
          </button>
        </p>
      </AuthLayout>
    );
  }

  return <PasswordStep />;
}

function PasswordStep() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Settings → Account → Delete account lands here with a full page load.
  const [search] = useSearchParams();
  const deleted = search.get("notice") === "account-deleted";
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: async ({ user }) => {
        // With a second factor the session now owes its code: this page shows that step
        // (keeping where to go after it).
        if (user.twoFactor) {
          const step = new URLSearchParams({ step: "two-factor" });
          const next = search.get("next");
          if (next) step.set("next", next);
          navigate(`/login?${step}`, { replace: true });
        }
        await refreshSession();
        if (!user.twoFactor) navigate(nextPath(search, "/"));
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ email, password });
  }

  return (
    <AuthLayout title="Log In">
      <FormMessage kind="success" text={deleted ? ACCOUNT_DELETE_TEXT.deleted : null} />
      <form onSubmit={submit} aria-label="Log in" className="stack">
        <EmailField value={email} onValue={setEmail} />
        <PasswordField label="Password" name="password" value={password} onValue={setPassword} />
        <button type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Log In"}
        </button>
        <FormMessage kind="error" text={login.error && errorMessage(login.error)} />
      </form>
      <p>
        No account yet? <Link to="/signup">Sign Up</Link>
      </p>
      <hr />
      <ForgotPasswordForm />
    </AuthLayout>
  );
}

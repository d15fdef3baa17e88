import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useRefreshSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AuthLayout, FormMessage } from "./auth-layout.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";

export default function LoginPage() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: async () => {
        await refreshSession();
        navigate("/");
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ email, password });
  }

  return (
    <AuthLayout title="Log In">
      <form onSubmit={submit} aria-label="Log in" className="stack">
        <label>
          Email
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            required
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
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

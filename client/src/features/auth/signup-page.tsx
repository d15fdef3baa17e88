import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { ACCOUNT_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from "../../../../shared/schemas/auth.ts";
import { EmailField, PasswordField, TextField } from "../../components/text-field.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AuthLayout, FormMessage } from "./auth-layout.tsx";

export default function SignupPage() {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [accountName, setAccountName] = useState("");
  const signup = useMutation(trpc.auth.signup.mutationOptions());

  function submit(event: FormEvent) {
    event.preventDefault();
    const name = accountName.trim();
    signup.mutate({ email, password, ...(name ? { account_name: name } : {}) });
  }

  return (
    <AuthLayout title="Sign Up">
      {signup.isSuccess ? (
        <FormMessage kind="success" text={signup.data.message} />
      ) : (
        <form onSubmit={submit} aria-label="Sign up" className="stack">
          <EmailField value={email} onValue={setEmail} />
          <PasswordField
            fresh
            label="Password"
            name="password"
            minLength={PASSWORD_MIN}
            maxLength={PASSWORD_MAX}
            aria-describedby="password-hint"
            value={password}
            onValue={setPassword}
          />
          <small id="password-hint">
            {PASSWORD_MIN} to {PASSWORD_MAX} characters.
          </small>
          <TextField
            label="Account name (optional)"
            name="account_name"
            maxLength={ACCOUNT_NAME_MAX}
            placeholder="Your app's name"
            autoComplete="organization"
            aria-describedby="account-name-hint"
            value={accountName}
            onValue={setAccountName}
          />
          <small id="account-name-hint">
            What your teammates see it called. Empty: your app's name from Settings.
          </small>
          <button type="submit" disabled={signup.isPending}>
            {signup.isPending ? "Signing up..." : "Sign Up"}
          </button>
          <FormMessage kind="error" text={signup.error && errorMessage(signup.error)} />
        </form>
      )}
      <p>
        Already have an account? <Link to="/login">Log In</Link>
      </p>
    </AuthLayout>
  );
}

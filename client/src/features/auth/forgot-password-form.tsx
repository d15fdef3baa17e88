import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { EmailField } from "../../components/text-field.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { FormMessage } from "./auth-layout.tsx";

export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());

  function submit(event: FormEvent) {
    event.preventDefault();
    request.mutate({ email });
  }

  return (
    <form onSubmit={submit} aria-labelledby="forgot-title" className="stack">
      <h2 id="forgot-title">Forgot your password?</h2>
      <EmailField
        name="forgot-email"
        disabled={request.isPending}
        value={email}
        onValue={setEmail}
      />
      <button type="submit" disabled={request.isPending}>
        Send Reset Email
      </button>
      <FormMessage kind="success" text={request.data?.message} />
      <FormMessage kind="error" text={request.error && errorMessage(request.error)} />
    </form>
  );
}

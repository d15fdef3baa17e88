/**
 * The sign-in's second step: the 6-digit code from the authenticator app, or one of the
 * recovery codes instead. Errors (a wrong or used code, too many tries) show under the field.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { TextField } from "../../components/text-field.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ErrorLine, SixDigitCode } from "./enrol-two-factor.tsx";
import "./two-factor.css";

type Props = {
  /** After the code was accepted: the session is whole. */
  onSignedIn: () => void;
  /** Gives up: ends the half-signed-in session. */
  onLogOut: () => void;
};

export function SecondFactorForm({ onSignedIn, onLogOut }: Props) {
  const trpc = useTRPC();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState("");
  const verify = useMutation(trpc.auth.verifyTwoFactor.mutationOptions({ onSuccess: onSignedIn }));

  function submit(event: FormEvent) {
    event.preventDefault();
    verify.mutate({ code });
  }

  function switchKind() {
    setUseRecovery(!useRecovery);
    setCode("");
    verify.reset();
  }

  return (
    <form onSubmit={submit} aria-label="Two-factor code" className="stack">
      {useRecovery ? (
        <TextField
          label="Enter one of your recovery codes"
          key="recovery"
          name="recovery-code"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={40}
          placeholder="xxxxx-xxxxx"
          aria-invalid={Boolean(verify.error)}
          aria-describedby={verify.error ? "second-factor-error" : undefined}
          value={code}
          onValue={setCode}
        />
      ) : (
        <SixDigitCode
          label="Enter the 6-digit code from your authenticator app"
          key="totp"
          error={verify.error}
          errorId="second-factor-error"
          value={code}
          onValue={setCode}
        />
      )}
      <ErrorLine error={verify.error} field="code" id="second-factor-error" />
      <button type="submit" disabled={verify.isPending}>
        {verify.isPending ? "Checking..." : "Verify"}
      </button>
      <p className="two-factor-note">
        {useRecovery ? "Have your phone? " : "No access to your authenticator app? "}
        <button type="button" className="link-like" onClick={switchKind}>
          {useRecovery ? "Use a code from the app" : "Use a recovery code instead"}
        </button>
      </p>
      <p className="two-factor-note">
        Not you, or want to start over?{" "}
        <button type="button" className="link-like" onClick={onLogOut}>
          Log out
        </button>
      </p>
    </form>
  );
}

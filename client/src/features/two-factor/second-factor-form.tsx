/**
 * The sign-in's second step: the 6-digit code from the authenticator app, or one of the
 * recovery codes instead. Errors (a wrong or used code, too many tries) show under the field.
 * Signed in with a recovery code, the person reads how many are left (urged to make new ones
 * when few are) before the console opens.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { FEW_RECOVERY_CODES } from "../../../../shared/schemas/two-factor.ts";
import { TextField } from "../../components/text-field.tsx";
import { useRefreshSession } from "../../lib/session.ts";
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
  const verify = useMutation(
    trpc.auth.verifyTwoFactor.mutationOptions({
      onSuccess: (answer) => {
        if (answer.recovery_codes_left === undefined) onSignedIn();
      },
    }),
  );
  const left = verify.data?.recovery_codes_left;
  if (left !== undefined) return <CodesLeft left={left} onContinue={onSignedIn} />;

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

const TWO_FACTOR_SETTINGS = "/homepage/settings#two-factor";

/** After a recovery code: how many are left, and an urge to make new ones when few are. */
function CodesLeft({ left, onContinue }: { left: number; onContinue: () => void }) {
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  const few = left <= FEW_RECOVERY_CODES;
  // The session is whole now, but the page still knows it as half signed in: refreshed
  // first, the console lets the link in instead of sending it back to the code.
  async function openTwoFactor() {
    await refreshSession();
    navigate(TWO_FACTOR_SETTINGS);
  }
  const codes = `${left} recovery ${left === 1 ? "code" : "codes"} left`;
  return (
    <div className="stack">
      <p className={few ? "message error" : "message success"} role="status">
        Signed in with a recovery code: you have {codes}.
      </p>
      {few && (
        <p>
          Each code works once. Make new ones in{" "}
          <a
            href={TWO_FACTOR_SETTINGS}
            onClick={(event) => {
              event.preventDefault();
              void openTwoFactor();
            }}
          >
            Settings → Two-factor sign-in
          </a>{" "}
          before you run out.
        </p>
      )}
      <button type="button" onClick={onContinue}>
        Continue to the console
      </button>
    </div>
  );
}

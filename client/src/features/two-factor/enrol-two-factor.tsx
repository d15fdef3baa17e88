/**
 * Turning on two-factor sign-in, step by step: the password again, then the secret (a QR code,
 * the key in groups of four, an otpauth:// link), then a code from the app to prove it holds
 * the secret, then the recovery codes, shown once. Used in Settings and, when an account
 * requires it, on the login page before the console opens.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TwoFactorEnrolment } from "../../../../shared/schemas/two-factor.ts";
import { PasswordField, TextField } from "../../components/text-field.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { RecoveryCodes } from "./recovery-codes.tsx";
import "./two-factor.css";

/** "ABCDEFGH…" as "ABCD EFGH …", easier to read and type. */
export function groupsOfFour(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

type Props = {
  email: string;
  /** After the recovery codes were saved. */
  onDone: () => void;
  onCancel?: () => void;
};

export function EnrolTwoFactor({ email, onDone, onCancel }: Props) {
  const trpc = useTRPC();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const begin = useMutation(trpc.twoFactor.begin.mutationOptions());
  const confirm = useMutation(trpc.twoFactor.confirm.mutationOptions());

  if (confirm.data) {
    return <RecoveryCodes codes={confirm.data.recovery_codes} email={email} onDone={onDone} />;
  }

  if (begin.data) {
    const submitCode = (event: FormEvent) => {
      event.preventDefault();
      confirm.mutate({ code });
    };
    return (
      <div className="stack two-factor-enrol">
        <SecretShown enrolment={begin.data} />
        <form onSubmit={submitCode} className="stack" aria-label="Confirm two-factor sign-in">
          <SixDigitCode
            label="Enter the 6-digit code the app shows"
            error={confirm.error}
            errorId="enrol-code-error"
            value={code}
            onValue={setCode}
          />
          <ErrorLine error={confirm.error} field="code" id="enrol-code-error" />
          <Buttons pending={confirm.isPending} label="Turn on" onCancel={onCancel} />
        </form>
      </div>
    );
  }

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    begin.mutate({ password });
  };
  return (
    <form onSubmit={submitPassword} className="stack" aria-label="Start two-factor sign-in">
      <p className="two-factor-note">
        You will need an authenticator app on your phone, such as Google Authenticator, Microsoft
        Authenticator, 1Password or Bitwarden. First, confirm it is you.
      </p>
      <PasswordField
        label="Your password"
        name="password"
        aria-invalid={Boolean(begin.error)}
        aria-describedby={begin.error ? "enrol-password-error" : undefined}
        value={password}
        onValue={setPassword}
      />
      <ErrorLine error={begin.error} field="password" id="enrol-password-error" />
      <Buttons pending={begin.isPending} label="Continue" onCancel={onCancel} />
    </form>
  );
}

function SecretShown({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`;
  return (
    <div className="stack">
      <p className="two-factor-note">
        Scan this QR code with your authenticator app, or type the key below into it.
      </p>
      <img
        className="two-factor-qr"
        src={qr}
        alt="QR code to scan with your authenticator app"
        width={180}
        height={180}
      />
      <label>
        Secret key
        <input
          className="two-factor-key"
          readOnly
          spellCheck={false}
          value={groupsOfFour(enrolment.secret)}
          onFocus={(event) => event.target.select()}
        />
      </label>
      <a href={enrolment.uri}>Open in an authenticator app on this device</a>
    </div>
  );
}

function Buttons({
  pending,
  label,
  onCancel,
}: {
  pending: boolean;
  label: string;
  onCancel?: () => void;
}) {
  return (
    <div className="two-factor-buttons">
      <button type="submit" disabled={pending}>
        {pending ? "Checking..." : label}
      </button>
      {onCancel && (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}

/** The authenticator app's 6-digit code (room for a space), marked invalid while `error` stands. */
export function SixDigitCode(props: {
  label: string;
  error: unknown;
  /** The id of the ErrorLine below it. */
  errorId: string;
  value: string;
  onValue(value: string): void;
}) {
  return (
    <TextField
      label={props.label}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      required
      maxLength={7}
      aria-invalid={Boolean(props.error)}
      aria-describedby={props.error ? props.errorId : undefined}
      value={props.value}
      onValue={props.onValue}
    />
  );
}

/** A failed call's message, in the words of the field it concerns when it names one. */
export function ErrorLine({
  error,
  field,
  id,
}: {
  error: unknown;
  field: string | string[];
  id: string;
}) {
  if (!error) return null;
  const byField = fieldErrors(error);
  const own = [field].flat().map((name) => byField[name]);
  return (
    <p className="message error" role="alert" id={id}>
      {own.find(Boolean) ?? errorMessage(error)}
    </p>
  );
}

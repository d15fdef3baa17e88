/**
 * Settings → Two-factor sign-in: whether the person signs in with a code from an authenticator
 * app; turning it on (enrolment), new recovery codes, and turning it off (password and a code).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { FEW_RECOVERY_CODES } from "../../../../shared/schemas/two-factor.ts";
import { LoadError } from "../../components/save-status.tsx";
import { PasswordField, TextField } from "../../components/text-field.tsx";
import { useSession } from "../../lib/session.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { EnrolTwoFactor, ErrorLine } from "./enrol-two-factor.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";
import "./two-factor.css";

export function TwoFactorSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const [enrolling, setEnrolling] = useState(false);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  // The status and the session (auth.me says whether this person has a second factor).
  const refresh = () => queryClient.invalidateQueries();
  const email = user?.email ?? "";

  let body: ReactNode;
  if (status.error) {
    body = <LoadError what="two-factor sign-in" error={errorMessage(status.error)} />;
  } else if (!status.data) {
    body = <p className="loading">Loading...</p>;
  } else if (newCodes) {
    body = <RecoveryCodes codes={newCodes} email={email} onDone={() => setNewCodes(null)} />;
  } else if (enrolling) {
    body = (
      <EnrolTwoFactor
        email={email}
        onDone={() => {
          setEnrolling(false);
          void refresh();
        }}
        onCancel={() => setEnrolling(false)}
      />
    );
  } else if (!status.data.enabled) {
    body = (
      <>
        <p className="two-factor-note">
          Off. Turn it on to be asked, after your password, for a code from an authenticator app on
          your phone: a stolen password alone then cannot open your account.
          {status.data.required_by_account && " An account you belong to requires it."}
        </p>
        <button type="button" className="two-factor-start" onClick={() => setEnrolling(true)}>
          Turn on two-factor sign-in
        </button>
      </>
    );
  } else {
    const since = status.data.enabled_at ? new Date(status.data.enabled_at) : null;
    body = (
      <>
        <p className="two-factor-note" role="status">
          <strong>On</strong>
          {since && ` since ${since.toLocaleDateString()}`}. {status.data.recovery_codes_left} of 10
          recovery codes left.
        </p>
        {status.data.recovery_codes_left <= FEW_RECOVERY_CODES && (
          <p className="message error">
            Only {status.data.recovery_codes_left} recovery{" "}
            {status.data.recovery_codes_left === 1 ? "code is" : "codes are"} left: make new ones
            below before you run out.
          </p>
        )}
        <RegenerateCodesForm
          onCodes={(codes) => {
            setNewCodes(codes);
            void refresh();
          }}
        />
        <DisableForm onDone={refresh} />
      </>
    );
  }

  return (
    <section className="panel stack" aria-labelledby="two-factor-title" id="two-factor">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {body}
    </section>
  );
}

function RegenerateCodesForm({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const regenerate = useMutation(
    trpc.twoFactor.regenerateCodes.mutationOptions({
      onSuccess: (data) => {
        setCode("");
        onCodes(data.recovery_codes);
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    regenerate.mutate({ code });
  }
  return (
    <form onSubmit={submit} className="stack" aria-labelledby="regenerate-title">
      <h3 id="regenerate-title">New recovery codes</h3>
      <p className="two-factor-note">
        Replaces all your recovery codes, used or not, with ten new ones.
      </p>
      <TextField
        label="Code from your authenticator app (or a recovery code)"
        name="regenerate-code"
        autoComplete="one-time-code"
        required
        maxLength={40}
        value={code}
        onValue={setCode}
      />
      <ErrorLine error={regenerate.error} field="code" id="regenerate-error" />
      <button type="submit" className="secondary" disabled={regenerate.isPending}>
        {regenerate.isPending ? "Checking..." : "Get new recovery codes"}
      </button>
    </form>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const disable = useMutation(trpc.twoFactor.disable.mutationOptions({ onSuccess: onDone }));
  function submit(event: FormEvent) {
    event.preventDefault();
    disable.mutate({ password, code });
  }
  return (
    <form onSubmit={submit} className="stack" aria-labelledby="disable-title">
      <h3 id="disable-title">Turn off</h3>
      <PasswordField
        label="Your password"
        name="disable-password"
        value={password}
        onValue={setPassword}
      />
      <TextField
        label="Code from your authenticator app (or a recovery code)"
        name="disable-code"
        autoComplete="one-time-code"
        required
        maxLength={40}
        value={code}
        onValue={setCode}
      />
      <ErrorLine error={disable.error} field={["password", "code"]} id="disable-error" />
      <button type="submit" className="danger" disabled={disable.isPending}>
        {disable.isPending ? "Checking..." : "Turn off two-factor sign-in"}
      </button>
    </form>
  );
}

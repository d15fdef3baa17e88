/**
 * The account's security settings: two-factor sign-in required of every member, and how long
 * the audit log keeps its events (30 to 2555 days). Every member sees them; only an owner may
 * change them (the controls are disabled for the rest, and the server refuses them anyway).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import {
  AUDIT_RETENTION_MAX,
  AUDIT_RETENTION_MIN,
  type SecuritySettings,
  ZSecuritySettings,
} from "../../../../shared/schemas/team.ts";
import { Editable } from "../../components/editable.tsx";
import { ErrorMessage } from "../../components/error-message.tsx";
import { Loaded } from "../../components/loaded.tsx";
import { useRereadSession } from "../../lib/session.ts";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";

export function SecuritySection() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.security.get.queryOptions());
  return (
    <section className="panel tm-panel" aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <Loaded query={settings} what="the security settings">
        {(saved) => (
          <Editable need="own">
            <SecurityForm saved={saved} />
          </Editable>
        )}
      </Loaded>
    </section>
  );
}

function SecurityForm({ saved }: { saved: SecuritySettings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rereadSession = useRereadSession();
  const [requireTwoFactor, setRequireTwoFactor] = useState(saved.require_two_factor);
  const [days, setDays] = useState(String(saved.audit_retention_days));
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => {
    setRequireTwoFactor(saved.require_two_factor);
    setDays(String(saved.audit_retention_days));
  }, [saved]);
  const put = useMutation(
    trpc.security.put.mutationOptions({
      onSuccess: async (next) => {
        queryClient.setQueryData(trpc.security.get.queryKey(), next);
        // Requiring two-factor may apply to you: the session says whether it does (re-read
        // alone, so this form stays to say "Settings saved!").
        if (next.require_two_factor !== saved.require_two_factor) await rereadSession();
      },
    }),
  );
  const daysError = localError ?? fieldErrors(put.error).audit_retention_days;

  function submit(event: FormEvent) {
    event.preventDefault();
    put.reset();
    const checked = ZSecuritySettings.safeParse({
      require_two_factor: requireTwoFactor,
      audit_retention_days: days.trim() === "" ? Number.NaN : Number(days),
    });
    if (!checked.success) {
      setLocalError(checked.error.issues[0]?.message ?? "Enter a number of days.");
      return;
    }
    setLocalError(null);
    put.mutate(checked.data);
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Security settings">
      <label className="check-row">
        <input
          type="checkbox"
          name="require_two_factor"
          checked={requireTwoFactor}
          onChange={(event) => setRequireTwoFactor(event.target.checked)}
        />
        Require two-factor sign-in for every member
      </label>
      <p className="config-note">
        Members without it must set it up before they can use this account again.
      </p>
      <label className="tm-days">
        Keep audit log events for (days)
        <input
          type="number"
          name="audit_retention_days"
          min={AUDIT_RETENTION_MIN}
          max={AUDIT_RETENTION_MAX}
          step={1}
          value={days}
          aria-invalid={daysError ? true : undefined}
          aria-describedby={daysError ? "audit_retention_days-error" : "audit_retention_days-note"}
          onChange={(event) => {
            setDays(event.target.value);
            setLocalError(null);
          }}
        />
        {daysError ? (
          <span className="field-error" id="audit_retention_days-error">
            {daysError}
          </span>
        ) : (
          <small id="audit_retention_days-note">
            From {AUDIT_RETENTION_MIN} days to {AUDIT_RETENTION_MAX} (7 years); older events are
            deleted.
          </small>
        )}
      </label>
      <div>
        <button type="submit" disabled={put.isPending}>
          {put.isPending ? "Saving…" : "Save security settings"}
        </button>
      </div>
      {put.isSuccess && (
        <p className="message success" role="status">
          {MESSAGES.settingsSaved}
        </p>
      )}
      <ErrorMessage error={!daysError && put.error} />
    </form>
  );
}

/**
 * A rule's action, mode and parameters, beside its switch. It shows what runs (templates
 * applied); Save sends only the fields the merchant changed, so a template's other values
 * keep applying. Field errors are the server's 400, shown under each field, or a draft's
 * errors when "Test on history" could not run it. The unsaved edits are the page's (see
 * rule-drafts.ts), so the test runs them too.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { RuleSetting } from "../../../../shared/schemas/rule-settings.ts";
import type { RuleKey } from "../../../../shared/schemas/rules.ts";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { changedFields } from "./rule-drafts.ts";
import { SettingField } from "./setting-field.tsx";

type Props = {
  rule: RuleKey;
  label: string;
  /** The settings that run for this rule. */
  value: RuleSetting;
  /** This rule's unsaved edits, field by field as the boxes hold them. */
  edits: Record<string, unknown>;
  onEdit: (field: string, value: unknown) => void;
  /** Called once the edits are saved: they are what runs now. */
  onSaved: () => void;
  /** Field errors of the page's unsaved edits, keyed "rule.field" as the PUT's. */
  draftErrors: Record<string, string>;
};

export function RuleSettingsPanel({
  rule,
  label,
  value,
  edits,
  onEdit,
  onSaved,
  draftErrors,
}: Props) {
  const trpc = useTRPC();
  const id = useId();
  const [open, setOpen] = useState(false);
  const put = useMutation(trpc.ruleSettings.put.mutationOptions());
  const shown = { ...value, ...edits } as Record<string, unknown>;
  const errors = { ...draftErrors, ...fieldErrors(put.error) };
  const errorOf = (field: string) =>
    Object.entries(errors).find(([path]) => path.startsWith(`${rule}.${field}`))?.[1];
  const hasFieldError = Object.keys(value).some((field) => errorOf(field) !== undefined);
  const hasDraftError = Object.keys(draftErrors).some((path) => path.startsWith(`${rule}.`));
  // A draft that could not be tested is shown where it can be fixed.
  useEffect(() => {
    if (hasDraftError) setOpen(true);
  }, [hasDraftError]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const changes = changedFields(value as Record<string, unknown>, edits);
    if (Object.keys(changes).length === 0) return;
    put.mutate({ [rule]: changes } as never, { onSuccess: onSaved });
  }

  return (
    <>
      <span className="rule-controls">
        <span className="rule-mode" data-rule-mode={rule}>
          {value.action === "review" ? "Review" : "Block"}
          {value.mode === "monitor" ? " · monitor" : ""}
        </span>
        <button
          type="button"
          className="secondary small"
          aria-expanded={open}
          aria-controls={`${id}-form`}
          aria-label={`Settings for ${label}`}
          onClick={() => setOpen((was) => !was)}
        >
          Settings
        </button>
      </span>
      {open && (
        <form
          id={`${id}-form`}
          className="rule-settings"
          aria-label={`${label} settings`}
          noValidate
          onSubmit={submit}
        >
          {rule === "rule_referrer_mismatch" && (
            <p className="hint" data-origins-hint>
              This rule compares an event's origin and referrer with your allowed origins, which
              live with your keys: <Link to="/homepage/settings">Settings → API keys</Link>.
            </p>
          )}
          {Object.keys(value).map((field) => (
            <SettingField
              key={field}
              id={id}
              field={field}
              value={shown[field]}
              error={errorOf(field)}
              onChange={(next) => {
                put.reset();
                onEdit(field, next);
              }}
            />
          ))}
          <div className="rule-settings-actions">
            <button type="submit" disabled={put.isPending}>
              {put.isPending ? "Saving…" : "Save"}
            </button>
            <span role="status">{put.isSuccess ? "Saved." : ""}</span>
          </div>
          {put.error && (
            <p className="message error" role="alert">
              Not saved:{" "}
              {hasFieldError ? "check the fields marked above." : errorMessage(put.error)}
            </p>
          )}
        </form>
      )}
    </>
  );
}

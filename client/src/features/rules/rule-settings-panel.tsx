/**
 * A rule's action, mode and parameters, beside its switch. It shows what runs (templates
 * applied); Save sends only the fields the merchant changed, so a template's other values
 * keep applying. Field errors are the server's 400, shown under each field.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { RuleSetting } from "../../../../shared/schemas/rule-settings.ts";
import type { RuleKey } from "../../../../shared/schemas/rules.ts";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { SettingField } from "./setting-field.tsx";

type Props = {
  rule: RuleKey;
  label: string;
  /** The settings that run for this rule. */
  value: RuleSetting;
  onSaved: () => void;
};

export function RuleSettingsPanel({ rule, label, value, onSaved }: Props) {
  const trpc = useTRPC();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [edits, setEdits] = useState<Record<string, unknown>>({});
  const put = useMutation(trpc.ruleSettings.put.mutationOptions());
  const shown = { ...value, ...edits } as Record<string, unknown>;
  const errors = fieldErrors(put.error);
  const errorOf = (field: string) =>
    Object.entries(errors).find(([path]) => path.startsWith(`${rule}.${field}`))?.[1];
  const hasFieldError = Object.keys(value).some((field) => errorOf(field) !== undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    const changes = changedFields(value as Record<string, unknown>, edits);
    if (Object.keys(changes).length === 0) return;
    put.mutate({ [rule]: changes } as never, {
      onSuccess: () => {
        setEdits({});
        onSaved();
      },
    });
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
          {Object.keys(value).map((field) => (
            <SettingField
              key={field}
              id={id}
              field={field}
              value={shown[field]}
              error={errorOf(field)}
              onChange={(next) => {
                put.reset();
                setEdits((current) => ({ ...current, [field]: next }));
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

/** The edited fields whose value differs from what runs, converted to what the API takes. */
function changedFields(current: Record<string, unknown>, edits: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(edits)) {
    const value =
      typeof raw === "string" && field !== "action" && field !== "mode" ? toNumber(raw) : raw;
    const cleaned =
      field === "allowed_origins"
        ? (value as string[]).map((o) => o.trim()).filter(Boolean)
        : value;
    if (JSON.stringify(cleaned) !== JSON.stringify(current[field])) out[field] = cleaned;
  }
  return out;
}

/** Typed text as a number; blank or unreadable is sent as-is for the server to name. */
function toNumber(text: string): unknown {
  if (text.trim() === "") return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

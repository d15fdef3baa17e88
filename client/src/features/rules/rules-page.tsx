import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RULE_CATALOG, RULE_GROUPS } from "../../../../shared/catalog/rules.ts";
import { RULE_KEYS, type RuleKey, type Rules } from "../../../../shared/schemas/rules.ts";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ToggleList } from "../../components/toggle-list.tsx";
import { drivenByText } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";
import { BacktestPanel, type BacktestRun } from "./backtest-panel.tsx";
import { type Drafts, describeChanges, withDrafts } from "./rule-drafts.ts";
import { RuleSettingsPanel } from "./rule-settings-panel.tsx";
import { ThresholdInput } from "./threshold-input.tsx";
import "./rules.css";

export default function RulesPage() {
  return (
    <SignedIn>
      <h1>Detection Rules (Standard + Advanced)</h1>
      <RulesEditor />
    </SignedIn>
  );
}

function RulesEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.rules.get.queryOptions());
  const effective = useQuery(trpc.ruleSettings.effective.queryOptions(undefined, { staleTime: 0 }));
  const refreshEffective = () =>
    queryClient.invalidateQueries({ queryKey: trpc.ruleSettings.effective.queryKey() });
  const put = useMutation(trpc.rules.put.mutationOptions());
  const templates = useQuery(trpc.templates.get.queryOptions());
  const blocklist = useQuery(trpc.blocklist.get.queryOptions());
  // Unsaved edits in the rules' Settings forms, and the field errors of the last attempt to
  // test them (keyed "rule.field" like the PUT's).
  const [drafts, setDrafts] = useState<Drafts>({});
  const [draftErrors, setDraftErrors] = useState<Record<string, string>>({});
  const edit = (rule: RuleKey, field: string, next: unknown) => {
    setDrafts((current) => ({ ...current, [rule]: { ...current[rule], [field]: next } }));
    setDraftErrors((current) =>
      Object.fromEntries(
        Object.entries(current).filter(
          ([path]) => path !== `${rule}.${field}` && !path.startsWith(`${rule}.${field}.`),
        ),
      ),
    );
  };
  const saved = (rule: RuleKey) => {
    setDrafts(({ [rule]: _, ...rest }) => rest);
    void refreshEffective();
  };
  const rules = useAutosave<Rules>({
    data: query.data,
    save: put.mutateAsync,
    onSaved: (saved) => {
      queryClient.setQueryData(trpc.rules.get.queryKey(), saved);
      void refreshEffective();
    },
  });

  if (query.isError) return <LoadError what="your rules" error={errorMessage(query.error)} />;
  const value = rules.value;
  if (!value) return <p className="loading">Loading…</p>;

  const toggle = (key: RuleKey) =>
    rules.update((current) => ({ ...current, [key]: !current[key] }));
  const extra = (key: RuleKey) => {
    const label = RULE_CATALOG.find((rule) => rule.key === key)?.label ?? key;
    const drivers = effective.data?.drivenBy[key] ?? [];
    return (
      <>
        {key === "rule_high_risk" && (
          <ThresholdInput
            value={value.risk_level_threshold}
            onChange={(threshold) =>
              rules.update((current) => ({ ...current, risk_level_threshold: threshold }))
            }
          />
        )}
        {drivers.length > 0 && (
          <span className="driven-by" data-driven-by={key}>
            {drivenByText(drivers)}
          </span>
        )}
        {effective.data && (
          <RuleSettingsPanel
            rule={key}
            label={label}
            value={effective.data.settings[key]}
            edits={drafts[key] ?? {}}
            onEdit={(field, next) => edit(key, field, next)}
            onSaved={() => saved(key)}
            draftErrors={draftErrors}
          />
        )}
      </>
    );
  };
  return (
    <>
      {effective.isError && (
        <LoadError what="the rule settings" error={errorMessage(effective.error)} />
      )}
      {RULE_GROUPS.map((group) => (
        <section key={group.id} className="config-section" aria-labelledby={`group-${group.id}`}>
          <h2 id={`group-${group.id}`}>{group.title}</h2>
          <ToggleList
            label={group.title}
            items={RULE_CATALOG.filter((rule) => rule.group === group.id)}
            values={value}
            onToggle={toggle}
            extra={extra}
          />
        </section>
      ))}
      <SaveStatus saving={rules.saving} error={rules.error} />
      <BacktestPanel
        settings={(): BacktestRun | null => {
          // The page's rules as shown (saved or not) and the settings that run for each rule,
          // with the Settings forms' unsaved edits over them.
          if (!templates.data || !blocklist.data || !effective.data) return null;
          const drafted = withDrafts(effective.data.settings, drafts);
          setDraftErrors(drafted.ok ? {} : drafted.errors);
          if (!drafted.ok) return { errors: drafted.errors };
          return {
            input: {
              rules: value,
              templates: templates.data,
              rule_settings: drafted.settings,
              blocklist: blocklist.data,
            },
            unsaved: [...unsavedRules(value, query.data), ...describeChanges(drafted.changed)],
          };
        }}
        onFieldErrors={(errors) => setDraftErrors(errors)}
      />
    </>
  );
}

/** The page's switches and threshold that differ from what is saved, as a person reads them. */
function unsavedRules(shown: Rules, saved: Rules | undefined): string[] {
  if (!saved) return [];
  const out = RULE_KEYS.filter((key) => shown[key] !== saved[key]).map(
    (key) =>
      `${RULE_CATALOG.find((rule) => rule.key === key)?.label ?? key} (${shown[key] ? "on" : "off"})`,
  );
  if (shown.risk_level_threshold !== saved.risk_level_threshold) {
    out.push(`the risk level threshold (${shown.risk_level_threshold})`);
  }
  return out;
}

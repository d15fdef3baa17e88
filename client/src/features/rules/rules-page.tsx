import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RULE_CATALOG, RULE_GROUPS } from "../../../../shared/catalog/rules.ts";
import { RULE_KEYS, type RuleKey, type Rules } from "../../../../shared/schemas/rules.ts";
import type { Templates } from "../../../../shared/schemas/templates.ts";
import { Editable } from "../../components/editable.tsx";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ToggleList } from "../../components/toggle-list.tsx";
import { drivenByText } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";
import { BacktestPanel, type BacktestRun } from "./backtest-panel.tsx";
import { type Drafts, describeChanges, withDrafts } from "./rule-drafts.ts";
import { RuleSettingsPanel } from "./rule-settings-panel.tsx";
import { switchesShown, switchOff } from "./switch-off.ts";
import { ThresholdInput } from "./threshold-input.tsx";
import { TurnOffNote } from "./turn-off-note.tsx";
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
  const templatesQuery = useQuery(trpc.templates.get.queryOptions());
  const putTemplates = useMutation(trpc.templates.put.mutationOptions());
  // Templates are saved from here too: turning off a rule a template drives turns it off.
  const templates = useAutosave<Templates>({
    data: templatesQuery.data,
    save: putTemplates.mutateAsync,
    onSaved: (saved) => {
      queryClient.setQueryData(trpc.templates.get.queryKey(), saved);
      void refreshEffective();
    },
  });
  // The rule whose switch was pressed while a template drives it: the note says what it takes.
  const [turningOff, setTurningOff] = useState<RuleKey | null>(null);
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

  // Each switch shows whether the rule runs, by its own flag or through a template, as the
  // server decides it; until the templates load, only the rule's own flag is known.
  const shown = templates.value ? switchesShown(value, templates.value) : null;
  const switches = shown?.enabled ?? value;
  const toggle = (key: RuleKey) => {
    if (!switches[key]) {
      setTurningOff(null);
      rules.update((current) => ({ ...current, [key]: true }));
      return;
    }
    if (!templates.value) return;
    const off = switchOff(key, value, templates.value);
    if (off.through === "own") rules.update((current) => ({ ...current, [key]: false }));
    else setTurningOff(key);
  };
  /** Turns off the templates that drive `key`, and its own flag: the rule then stops. */
  const turnOffThrough = (key: RuleKey) => {
    if (!templates.value) return;
    const off = switchOff(key, value, templates.value);
    setTurningOff(null);
    if (off.through !== "templates") return;
    templates.update(() => off.nextTemplates);
    if (value[key]) rules.update((current) => ({ ...current, [key]: false }));
  };
  const extra = (key: RuleKey) => {
    const label = RULE_CATALOG.find((rule) => rule.key === key)?.label ?? key;
    const drivers = shown?.drivenBy[key] ?? [];
    const off =
      turningOff === key && templates.value ? switchOff(key, value, templates.value) : null;
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
            {value[key] ? " and its own switch" : ""}
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
        {off?.through === "templates" && (
          <TurnOffNote
            label={label}
            off={off}
            onTurnOff={() => turnOffThrough(key)}
            onKeep={() => setTurningOff(null)}
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
      {templatesQuery.isError && (
        <LoadError what="your templates" error={errorMessage(templatesQuery.error)} />
      )}
      {/* The rules need the configure permission; testing them on history, review (an
          analyst runs the saved rules), as the server's table says (shared/team/roles.ts). */}
      <Editable need="configure">
        {RULE_GROUPS.map((group) => (
          <section key={group.id} className="config-section" aria-labelledby={`group-${group.id}`}>
            <h2 id={`group-${group.id}`}>{group.title}</h2>
            <ToggleList
              label={group.title}
              items={RULE_CATALOG.filter((rule) => rule.group === group.id)}
              values={switches}
              onToggle={toggle}
              extra={extra}
            />
          </section>
        ))}
        <SaveStatus
          saving={rules.saving || templates.saving}
          saved={rules.saved || templates.saved}
          error={rules.error}
        />
        {templates.error && <SaveStatus saving={false} error={templates.error} />}
      </Editable>
      <Editable need="review">
        <BacktestPanel
          settings={(): BacktestRun | null => {
            // The page's rules as shown (saved or not) and the settings that run for each rule,
            // with the Settings forms' unsaved edits over them.
            if (!templates.value || !blocklist.data || !effective.data) return null;
            const drafted = withDrafts(effective.data.settings, drafts);
            setDraftErrors(drafted.ok ? {} : drafted.errors);
            if (!drafted.ok) return { errors: drafted.errors };
            return {
              input: {
                rules: value,
                templates: templates.value,
                rule_settings: drafted.settings,
                blocklist: blocklist.data,
              },
              unsaved: [...unsavedRules(value, query.data), ...describeChanges(drafted.changed)],
            };
          }}
          onFieldErrors={(errors) => setDraftErrors(errors)}
        />
      </Editable>
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

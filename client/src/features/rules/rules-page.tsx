import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RULE_CATALOG, RULE_GROUPS } from "../../../../shared/catalog/rules.ts";
import type { RuleKey, Rules } from "../../../../shared/schemas/rules.ts";
import { LoadError, SaveStatus } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ToggleList } from "../../components/toggle-list.tsx";
import { drivenByText } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { useAutosave } from "../../lib/use-autosave.ts";
import { BacktestPanel } from "./backtest-panel.tsx";
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
            onSaved={refreshEffective}
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
        settings={() =>
          // The page's rules as shown (saved or not) and the settings that run for each rule.
          templates.data && blocklist.data && effective.data
            ? {
                rules: value,
                templates: templates.data,
                rule_settings: effective.data.settings,
                blocklist: blocklist.data,
              }
            : null
        }
      />
    </>
  );
}

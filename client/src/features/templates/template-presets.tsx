/**
 * Under a template: the rules it turns on, the values it sets on them, and the event types
 * whose risk score it judges (thresholds on the Risk score page).
 */
import { Link } from "react-router";
import type { TemplateEntry } from "../../../../shared/catalog/templates.ts";
import type { RuleKey } from "../../../../shared/schemas/rules.ts";
import { formatSettingValue, ruleLabel, settingLabel } from "../../lib/rule-format.ts";

export function TemplatePresets({ template }: { template: TemplateEntry }) {
  return (
    <div className="template-presets">
      <p className="template-description">{template.description}</p>
      <ul aria-label={`Rules ${template.label} turns on`}>
        {template.rules.map((rule) => (
          <li key={rule} data-rule={rule}>
            <strong>{ruleLabel(rule)}</strong>
            <PresetValues values={template.settings[rule as RuleKey]} />
          </li>
        ))}
      </ul>
      <p className="preset-values" data-score-types={template.scoreTypes.join(",")}>
        The risk score also reviews or blocks its{" "}
        {template.scoreTypes.map((type) => type.replace("_", " ")).join(" and ")} events past the
        thresholds on the <Link to="/homepage/risk-score">Risk score</Link> page.
      </p>
    </div>
  );
}

function PresetValues({ values }: { values: Record<string, unknown> | undefined }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <span className="preset-values"> with its default values</span>;
  return (
    <span className="preset-values">
      {" — "}
      {entries
        .map(([field, value]) => `${settingLabel(field)}: ${formatSettingValue(field, value)}`)
        .join("; ")}
    </span>
  );
}

/** One rule setting's input, chosen by the kind of value it holds. */
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";
import { settingChoices, settingLabel } from "../../lib/rule-format.ts";

type Props = {
  id: string;
  field: string;
  /** What the box shows: a number field holds the typed text while editing. */
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
};

export function SettingField({ id, field, value, error, onChange }: Props) {
  const name = `${id}-${field}`;
  const described = error ? `${name}-error` : undefined;
  const message = error && (
    <span className="field-error" id={`${name}-error`}>
      {error}
    </span>
  );

  const options = settingChoices(field);
  if (options) {
    return (
      <label>
        {settingLabel(field)}
        <select
          name={field}
          value={String(value)}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map(([key, text]) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
        {message}
      </label>
    );
  }
  if (typeof value === "boolean") {
    return (
      <label className="check-row">
        <input
          type="checkbox"
          name={field}
          checked={value}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.checked)}
        />
        {settingLabel(field)}
        {message}
      </label>
    );
  }
  if (field === "event_types") {
    return <EventTypes field={field} value={value as string[] | null} onChange={onChange} />;
  }
  if (field === "disposable_signups_per_hour") {
    return (
      <div className="setting-group">
        <label className="check-row">
          <input
            type="checkbox"
            name={`${field}-all`}
            checked={value === null}
            onChange={(event) => onChange(event.target.checked ? null : "3")}
          />
          Block every disposable email
        </label>
        {value !== null && <NumberField {...{ field, value, described, onChange }} />}
        {message}
      </div>
    );
  }
  return (
    <div className="setting-group">
      <NumberField {...{ field, value, described, onChange }} />
      {message}
    </div>
  );
}

function NumberField(props: {
  field: string;
  value: unknown;
  described?: string;
  onChange: (value: unknown) => void;
}) {
  return (
    <label>
      {settingLabel(props.field)}
      <input
        type="number"
        name={props.field}
        inputMode="numeric"
        step={1}
        value={String(props.value)}
        aria-describedby={props.described}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </label>
  );
}

function EventTypes(props: {
  field: string;
  value: string[] | null;
  onChange: (value: unknown) => void;
}) {
  const { value, onChange } = props;
  return (
    <fieldset className="setting-group event-types">
      <legend>{settingLabel(props.field)}</legend>
      <label className="check-row">
        <input
          type="checkbox"
          name="event_types-all"
          checked={value === null}
          onChange={(event) => onChange(event.target.checked ? null : ["signup"])}
        />
        Every event
      </label>
      {value !== null &&
        SCREEN_TYPES.map((type) => (
          <label key={type} className="check-row">
            <input
              type="checkbox"
              name={`event_types-${type}`}
              checked={value.includes(type)}
              onChange={(event) =>
                onChange(event.target.checked ? [...value, type] : value.filter((t) => t !== type))
              }
            />
            {type}
          </label>
        ))}
    </fieldset>
  );
}

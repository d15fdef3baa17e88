/** A list's filter: a labelled select whose first choice, "All" (""), filters nothing. */
export function FilterSelect({
  label,
  name,
  value,
  options,
  onPick,
  all = "All",
  disabled,
}: {
  label: string;
  name: string;
  value: string | undefined;
  /** Each choice's value and text. */
  options: readonly (readonly [string, string])[];
  onPick(raw: string): void;
  /** The text of the no-filter choice. */
  all?: string;
  disabled?: boolean;
}) {
  return (
    <label>
      {label}
      <select
        name={name}
        value={value ?? ""}
        disabled={disabled}
        onChange={(event) => onPick(event.target.value)}
      >
        <option value="">{all}</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A list's filter: a labelled select whose first choice, "All" (""), filters nothing. */
export function FilterSelect({
  label,
  name,
  value,
  options,
  onPick,
}: {
  label: string;
  name: string;
  value: string | undefined;
  /** Each choice's value and text. */
  options: readonly (readonly [string, string])[];
  onPick(raw: string): void;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value ?? ""} onChange={(event) => onPick(event.target.value)}>
        <option value="">All</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

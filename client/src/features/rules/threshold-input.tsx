/** The risk threshold box: clamps to 0-100 while typing (150 becomes 100, -5 becomes 0). */
import { useEffect, useState } from "react";
import { clampThreshold, THRESHOLD_MAX, THRESHOLD_MIN } from "../../../../shared/schemas/rules.ts";

export function ThresholdInput({
  value,
  onChange,
}: {
  value: number;
  onChange: (value: number) => void;
}) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);

  return (
    <label className="threshold">
      Threshold (0 most strict, 100 most lenient)
      <input
        type="number"
        name="risk_level_threshold"
        inputMode="numeric"
        min={THRESHOLD_MIN}
        max={THRESHOLD_MAX}
        step={1}
        value={text}
        onChange={(event) => {
          const clamped = clampThreshold(event.target.value);
          if (clamped === null) {
            setText("");
            return;
          }
          setText(String(clamped));
          if (clamped !== value) onChange(clamped);
        }}
        onBlur={() => {
          if (text === "") setText(String(value));
        }}
      />
    </label>
  );
}

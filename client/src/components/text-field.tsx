/** A labelled input whose text lives in its parent's state: the label's text, then the input. */
import type { InputHTMLAttributes, ReactNode } from "react";

export function TextField({
  label,
  value,
  onValue,
  ...input
}: {
  label: ReactNode;
  value: string;
  onValue(value: string): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  return (
    <label>
      {label}
      <input {...input} value={value} onChange={(e) => onValue(e.target.value)} />
    </label>
  );
}

/** The account email input of the sign-in forms (name "email" unless given). */
export function EmailField(
  props: { value: string; onValue(value: string): void } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    "value" | "onChange"
  >,
) {
  return (
    <TextField label="Email" type="email" name="email" required autoComplete="email" {...props} />
  );
}

/** A labelled input whose text lives in its parent's state: the label's text, then the input. */
import type { InputHTMLAttributes, ReactNode } from "react";

type TextFieldProps = {
  label: ReactNode;
  value: string;
  onValue(value: string): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">;

export function TextField({ label, value, onValue, ...input }: TextFieldProps) {
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

/**
 * A password input, required unless told: the person's current password, or with `fresh` a new
 * one (the autocomplete browsers and password managers read).
 */
export function PasswordField({
  fresh = false,
  required = true,
  ...props
}: TextFieldProps & { fresh?: boolean }) {
  return (
    <TextField
      type="password"
      required={required}
      autoComplete={fresh ? "new-password" : "current-password"}
      {...props}
    />
  );
}

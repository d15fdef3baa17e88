/** The common email providers offered as presets on the Block lists page (spec §3). */
export const EMAIL_PROVIDER_PRESETS = [
  "gmail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "icloud.com",
  "aol.com",
  "protonmail.com",
] as const;

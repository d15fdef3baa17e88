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

/**
 * Privacy relays: one lasting, random-looking address per site that forwards to a real inbox
 * (Apple Hide My Email, Firefox Relay, DuckDuckGo, SimpleLogin, addy.io). People choose them
 * to avoid spam, not to throw the address away: never disposable, and a random local part is
 * how they look, not a sign of a generated account.
 */
export const RELAY_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  "privaterelay.appleid.com",
  "icloud.com.relay",
  "mozmail.com",
  "relay.firefox.com",
  "duck.com",
  "simplelogin.com",
  "simplelogin.co",
  "simplelogin.fr",
  "aleeas.com",
  "slmail.me",
  "8shield.net",
  "anonaddy.com",
  "anonaddy.me",
  "addy.io",
  "passmail.net",
  "passinbox.com",
]);

/**
 * What an audit event may keep of a value: secrets masked wherever they sit (a key named like
 * a secret, or a value shaped like one of our keys or Stripe's), everything else as it was.
 * Pure.
 */
const SECRET_NAME = /secret|password|token|(^|_)key$|apiKey|signing|slack_url/i;
const SECRET_VALUE = /^(wdn_(sk|pk)_|sk_(live|test)_|rk_(live|test)_|whsec_)/;

/** "••••1a2b": enough to tell two secrets apart, never enough to use one. */
export function maskSecret(value: string): string {
  return value.length === 0 ? "" : `••••${value.slice(-4)}`;
}

/** Kept of a password: nothing, not even its length. */
const PASSWORD_NAME = /password/i;
export const PASSWORD_MASK = "••••••••";

export function masked(value: unknown, name = ""): unknown {
  if (typeof value === "string") {
    if (PASSWORD_NAME.test(name)) return PASSWORD_MASK;
    return SECRET_NAME.test(name) || SECRET_VALUE.test(value) ? maskSecret(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => masked(item, name));
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        masked(item, key),
      ]),
    );
  }
  return value;
}

/** Stripe amounts are in minor units; people read major units. */

/** Currencies Stripe counts in whole units (no minor unit). */
const ZERO_DECIMAL = new Set(
  "bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf".split(" "),
);
/** Currencies Stripe counts in thousandths. */
const THREE_DECIMAL = new Set("bhd jod kwd omr tnd".split(" "));

export function toMajorUnits(amount: number, currency: string): number {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return amount;
  if (THREE_DECIMAL.has(code)) return amount / 1000;
  return amount / 100;
}

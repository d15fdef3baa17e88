/** Collector setup the screening and history tests share. */
import { allowOrigins, publishableKeyOf, SHOP } from "../helpers/collector.ts";
import type { Merchant } from "../helpers/merchants.ts";

/** The merchant's publishable key, with the shop's origin allowed to collect with it. */
export async function shopCollectorKey(merchant: Merchant): Promise<string> {
  const pk = (await publishableKeyOf(merchant)).key;
  await allowOrigins(merchant, [SHOP]);
  return pk;
}

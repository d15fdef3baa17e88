/*
 * Offline IP → country and autonomous system.
 * Country: @ip-location-db/geo-whois-asn-country-mmdb (CC0-1.0), read with mmdb-lib.
 * ASN: @ip-location-db/asn (CC-BY-4.0), built from RouteViews (routeviews.org), the NRO
 * statistics (nro.net) and DB-IP's IP to ASN Lite (https://db-ip.com, "IP Geolocation by
 * DB-IP"); attribution is required, see DATA.md. DATA.md also has the memory and speed figures
 * that chose these flavours.
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Reader, type Response } from "mmdb-lib";
import { memo } from "../../../lib/memo.ts";
import { embeddedIPv4, isNonPublicAddress } from "../../../lib/non-public-address.ts";
import { isHostingAsn } from "./hosting-asns.ts";
import { formatIPv4, formatIPv6, type ParsedIp, parseIp } from "./ip-parse.ts";
import { type AsnTable, loadAsnTable } from "./ip-range-table.ts";

/** What the offline data says about an address; all null for private or unknown ones. */
export type IpLookup = {
  country: string | null;
  asn: number | null;
  org: string | null;
  hosting: boolean;
};

type Data = { country: Reader<Response>; asnV4: AsnTable; asnV6: AsnTable };

const NOTHING: IpLookup = { country: null, asn: null, org: null, hosting: false };

let data: Data | undefined;

// Loaded on the first lookup, once per process: about a second and a few tens of MB.
function load(): Data {
  const require = createRequire(import.meta.url);
  const file = (path: string) => require.resolve(`@ip-location-db/${path}`);
  return {
    country: new Reader(
      readFileSync(file("geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb")),
    ),
    asnV4: loadAsnTable(file("asn/asn-ipv4-num.csv"), 1),
    asnV6: loadAsnTable(file("asn/asn-ipv6-num.csv"), 4),
  };
}

function key(parsed: ParsedIp): number[] {
  if (parsed.version === 4) return [parsed.value];
  const g = parsed.groups;
  return [0, 2, 4, 6].map((i) => (((g[i] ?? 0) << 16) | (g[i + 1] ?? 0)) >>> 0);
}

/** Country (ISO 3166 alpha-2), ASN, AS organisation and hosting flag of an address, offline. */
export function lookupIp(ip: string): IpLookup {
  return lookupMemo(ip);
}

// A range search per address; a backtest asks again for every event from the same address.
const lookupMemo = memo(lookupUncached);

function lookupUncached(ip: string): IpLookup {
  const parsed = parseIp(ip);
  if (parsed === null) return NOTHING;
  const text = parsed.version === 4 ? formatIPv4(parsed.value) : formatIPv6(parsed.groups);
  // Not routable on the internet (the list the webhooks' guard uses too): no data set places it.
  if (isNonPublicAddress(text)) return NOTHING;
  // 6to4, NAT64 and ::a.b.c.d reach the IPv4 host they embed: place that host.
  const embedded = embeddedIPv4(text);
  if (embedded) return lookupIp(embedded);
  data ??= load();
  // mmdb-lib types records as MaxMind's; this file's records are { country_code: "US" }.
  const record = data.country.get(text) as { country_code?: string } | null;
  const country = record?.country_code ?? null;
  const entry = (parsed.version === 4 ? data.asnV4 : data.asnV6).find(key(parsed));
  const asn = entry?.asn ?? null;
  return { country, asn, org: entry?.org ?? null, hosting: isHostingAsn(asn) };
}

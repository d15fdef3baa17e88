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
import { BlockList } from "node:net";
import { Reader, type Response } from "mmdb-lib";
import { memo } from "../../../lib/memo.ts";
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

// Not routable on the internet, so no data set can place them (RFC 6890 and friends). Two
// lists, because a BlockList also matches IPv4 addresses against its IPv6 rules (as ::ffff:…).
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3],
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, bits, "ipv4");
}
// Only 2000::/3 is global unicast; 2001:db8::/32 is for documentation.
NOT_PUBLIC_V6.addSubnet("::", 3, "ipv6");
NOT_PUBLIC_V6.addSubnet("4000::", 2, "ipv6");
NOT_PUBLIC_V6.addSubnet("8000::", 1, "ipv6");
NOT_PUBLIC_V6.addSubnet("2001:db8::", 32, "ipv6");

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
  const notPublic = parsed.version === 4 ? NOT_PUBLIC_V4 : NOT_PUBLIC_V6;
  if (notPublic.check(text, parsed.version === 4 ? "ipv4" : "ipv6")) return NOTHING;
  data ??= load();
  // mmdb-lib types records as MaxMind's; this file's records are { country_code: "US" }.
  const record = data.country.get(text) as { country_code?: string } | null;
  const country = record?.country_code ?? null;
  const entry = (parsed.version === 4 ? data.asnV4 : data.asnV6).find(key(parsed));
  const asn = entry?.asn ?? null;
  return { country, asn, org: entry?.org ?? null, hosting: isHostingAsn(asn) };
}

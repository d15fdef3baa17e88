import normalizeEmailWithValidator from "validator/lib/normalizeEmail.js";
import { formatIPv4, formatIPv6, ipv6Prefix, parseIp } from "./ip-parse.ts";

/**
 * The address one inbox is reached by: lowercase and trimmed, with provider aliases folded
 * (validator 13.15: gmail dots, googlemail, yahoo "-" suffixes) and a +tag dropped on every
 * domain: Google Workspace, Microsoft 365, Fastmail, Proton and Postfix's default delimiter
 * all deliver "name+anything" to "name", so a farm on its own domain or a company's could
 * otherwise pose as many accounts with one inbox (issue 42). Never throws: input that is not
 * a plain address comes back lowercased and trimmed.
 */
export function normalizeEmail(email: string): string {
  const lowered = email.trim().toLowerCase();
  const at = lowered.lastIndexOf("@");
  // validator turns "x" into "@x" and mangles quoted local parts; leave those alone.
  if (at <= 0 || at === lowered.length - 1 || lowered.indexOf("@") !== at) return lowered;
  if (lowered.startsWith('"')) return lowered;
  const normalized = normalizeEmailWithValidator(lowered);
  if (normalized === false) return lowered;
  const [local = "", domain = ""] = splitAddress(normalized);
  const untagged = local.split("+")[0] ?? "";
  return untagged === "" ? normalized : `${untagged}@${domain}`;
}

function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf("@");
  return [address.slice(0, at), address.slice(at + 1)];
}

/** Keys to count by: what one subscriber holds (`ip`) and its neighbourhood (`subnet`). */
export type IpKeys = { ip: string; subnet: string };

/**
 * IPv4: the address and its /24. IPv6: the /64 (one home or server gets a whole /64, so
 * counting single addresses would miss it) and its /48 (a typical site allocation).
 * IPv4-mapped IPv6 counts as the IPv4 address. Throws TypeError on text that is not an IP.
 */
export function ipKeys(ip: string): IpKeys {
  const parsed = parseIp(ip);
  if (parsed === null) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  if (parsed.version === 4) {
    const network = (parsed.value & 0xffffff00) >>> 0;
    return { ip: formatIPv4(parsed.value), subnet: `${formatIPv4(network)}/24` };
  }
  return {
    ip: `${formatIPv6(ipv6Prefix(parsed.groups, 64))}/64`,
    subnet: `${formatIPv6(ipv6Prefix(parsed.groups, 48))}/48`,
  };
}

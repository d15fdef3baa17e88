/**
 * Where a decision webhook may go: only to public addresses, unless the operator allows
 * private ones (WEBHOOKS_ALLOW_PRIVATE, for self-hosted setups). Checked when an endpoint is
 * saved and again on every connection, through the lookup the request itself uses, so a name
 * that resolves somewhere else later (DNS rebinding) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}

/** Loopback, private, link-local, shared, multicast or reserved: not the public internet. */
export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  const version = isIP(address);
  if (!version) return true;
  return PRIVATE.check(address, version === 6 ? "ipv6" : "ipv4");
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup for http.request that refuses private addresses unless allowed. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (refused) {
        const err: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${refused.address}, a private address: refused (WEBHOOKS_ALLOW_PRIVATE allows it)`,
        );
        err.code = "EPRIVATE";
        return callback(err, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Why a URL cannot be a webhook endpoint, or null when it can (resolving its name once). */
export async function endpointProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http or https URL";
  if (url.username || url.password) return "must not carry a user name or password";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "must not be a private address";
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve) =>
        dnsLookup(host, { all: true }, (error, list) =>
          resolve(error ? [] : (list as LookupAddress[]).map((a) => a.address)),
        ),
      );
  if (addresses.length === 0) return `${host} does not resolve`;
  return addresses.some(isPrivateAddress)
    ? "must not be a private, loopback or link-local address"
    : null;
}

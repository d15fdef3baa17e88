/**
 * Where a decision webhook may go: only to public addresses, unless the operator allows
 * private ones (WEBHOOKS_ALLOW_PRIVATE, for self-hosted setups). Checked when an endpoint is
 * saved and again at every send: an IP literal by the sender itself (Node skips the lookup for
 * one, and an endpoint saved while private targets were allowed outlives that setting), a name
 * through the lookup the request itself uses, so one that resolves somewhere else later (DNS
 * rebinding) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { isNonPublicAddress } from "../../lib/non-public-address.ts";

/** Refused, in the words the console shows under the URL field. */
const PRIVATE_TARGET =
  "must not be a private, loopback or link-local address (set WEBHOOKS_ALLOW_PRIVATE=true to allow it on a self-hosted network)";

/**
 * Not the public internet (server/lib/non-public-address.ts, the list screening uses too),
 * including IPv6 forms that embed a private IPv4 address (::ffff:7f00:1, 2002:7f00:1::1).
 */
export const isPrivateAddress = isNonPublicAddress;

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
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return PRIVATE_TARGET;
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve) =>
        dnsLookup(host, { all: true }, (error, list) =>
          resolve(error ? [] : (list as LookupAddress[]).map((a) => a.address)),
        ),
      );
  if (addresses.length === 0) return `${host} does not resolve`;
  return addresses.some(isPrivateAddress) ? PRIVATE_TARGET : null;
}

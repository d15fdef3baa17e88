/**
 * rule_email: the email's provider is on the block list, or its domain is a known disposable
 * one. For screened events the disposable check can be limited to some event types, and
 * signups from disposable domains can be throttled (N an hour) instead of all blocked.
 * Privacy relays (Hide My Email, Firefox Relay...) are never disposable. A typo of a big
 * provider (gmial.com) is reviewed, not blocked: the person retypes it (npm run simulate:
 * blocking it blocked one retry_typo person in eight). And a signup is reviewed when its
 * domain is new to this merchant this hour and more than N signups with made-up addresses
 * (anna4821@, k7q9z2x@) came with it from other networks: a farm's own fresh inbox domain,
 * which no list knows yet. A company's people sign up with their names, from their homes and
 * phones (decision 030): they are not counted, and a person's address is never reviewed here.
 */
import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import { DAY, declare, fixed, HOUR } from "../counting.ts";
import { emailDomain, looksLikeAPerson } from "../email-domain.ts";
import { typoOf } from "../email-typo.ts";
import type { Features, Finding, Policy, Rule } from "../types.ts";
import { ordinal } from "../words.ts";

const disposableSignups = declare({
  group: "disposableSignupsLastHour",
  kinds: ["disposable"],
  asks: ["signup"],
  types: ["signup"],
  window: fixed(HOUR),
  measure: "count",
  enabled: (s) => s.rule_email.disposable_signups_per_hour !== null,
});

/**
 * Signups with this email domain (and from this network) in the last hour, all of them and
 * those with made-up addresses: new domains only.
 */
export const domainSignups = declare({
  group: "domainSignupsLastHour",
  kinds: ["domain", "domainNet", "domainMadeUp", "domainMadeUpNet"],
  asks: ["signup"],
  types: ["signup"],
  window: fixed(HOUR),
  measure: "count",
  enabled: (s) => s.rule_email.new_domain_signups_per_hour !== null,
});
/** Every signup with this domain in 30 days: equal to the hour's when the domain is new. */
export const domainSeen = declare({
  group: "domainSignups30Days",
  kinds: ["domain"],
  asks: ["signup"],
  types: ["signup"],
  window: fixed(30 * DAY),
  measure: "count",
  enabled: (s) => s.rule_email.new_domain_signups_per_hour !== null,
});

export const email: Rule = {
  key: "rule_email",
  appliesTo: ["charge", "event"],
  counts: [disposableSignups, domainSignups, domainSeen],
  check(subject, policy, features) {
    const domain = emailDomain(subject.email);
    if (!domain) return null;
    if (policy.blocklist.email_providers.includes(domain)) {
      return { message: `email provider ${domain} is blocked`, observed: domain, limit: null };
    }
    // A relay forwards to a lasting inbox: never disposable, whatever a list says.
    if (RELAY_EMAIL_DOMAINS.has(domain)) return null;
    const typo = subject.kind === "event" ? typoOf(domain) : null;
    if (typo) {
      return {
        message: `email domain ${domain} looks like a typo of ${typo}: the address cannot reach its owner`,
        observed: domain,
        limit: typo,
        review: true,
      };
    }
    if (!features.disposableDomains.has(domain)) {
      return subject.kind === "event"
        ? freshDomain(subject.type, subject.email, domain, policy, features)
        : null;
    }
    if (subject.kind === "charge") {
      return {
        message: `disposable email domain ${domain} (on the disposable-domain list)`,
        observed: domain,
        limit: null,
      };
    }
    const { event_types: types, disposable_signups_per_hour: perHour } = policy.settings.rule_email;
    if (types && !types.includes(subject.type)) return null;
    if (perHour !== null && subject.type === "signup") {
      const seen = (disposableSignups.read(features)?.disposable ?? 0) + 1;
      if (seen <= perHour) return null;
      return {
        message: `signup with disposable email domain ${domain}: ${seen} this hour (limit ${perHour})`,
        observed: seen,
        limit: perHour,
      };
    }
    return {
      message: `disposable email domain ${domain} (on the disposable-domain list)`,
      observed: domain,
      limit: null,
    };
  },
};

/**
 * A signup with a made-up address at a domain first seen this hour, the (N+1)th such with it
 * from another network than this one's /24: reviewed. Big providers and relays are never new.
 */
function freshDomain(
  type: string,
  email: string | null,
  domain: string,
  policy: Policy,
  features: Features,
): Finding | null {
  const limit = policy.settings.rule_email.new_domain_signups_per_hour;
  if (type !== "signup" || limit === null) return null;
  const hour = domainSignups.read(features);
  const month = domainSeen.read(features);
  if (!hour || !month || month.domain > hour.domain) return null;
  if (looksLikeAPerson(email, features.emailRandomness?.random ?? false)) return null;
  const elsewhere = madeUpElsewhere(hour) + 1;
  if (elsewhere <= limit) return null;
  return {
    message: `${ordinal(elsewhere)} signup this hour with a made-up address at ${domain}, a domain new to this site, from different networks (limit ${limit})`,
    observed: elsewhere,
    limit,
    review: true,
  };
}

/** Earlier signups this hour with a made-up address at the domain, from other networks. */
export function madeUpElsewhere(hour: Record<"domainMadeUp" | "domainMadeUpNet", number>): number {
  return Math.max(0, hour.domainMadeUp - hour.domainMadeUpNet);
}

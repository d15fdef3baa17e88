/**
 * rule_email: the email's provider is on the block list, or its domain is a known disposable
 * one. For screened events the disposable check can be limited to some event types, and
 * signups from disposable domains can be throttled (N an hour) instead of all blocked.
 * Privacy relays (Hide My Email, Firefox Relay...) are never disposable.
 */
import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import { emailDomain } from "../email-domain.ts";
import type { Rule } from "../types.ts";

export const email: Rule = {
  key: "rule_email",
  appliesTo: ["charge", "event"],
  check(subject, policy, features) {
    const domain = emailDomain(subject.email);
    if (!domain) return null;
    if (policy.blocklist.email_providers.includes(domain)) {
      return { message: `email provider ${domain} is blocked`, observed: domain, limit: null };
    }
    // A relay forwards to a lasting inbox: never disposable, whatever a list says.
    if (RELAY_EMAIL_DOMAINS.has(domain) || !features.disposableDomains.has(domain)) return null;
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
      const seen = (features.counts?.disposableSignupsLastHour ?? 0) + 1;
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

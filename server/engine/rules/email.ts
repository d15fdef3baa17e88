/** rule_email: the email's provider is on the block list, or is a known disposable domain. */
import { emailDomain } from "../email-domain.ts";
import type { Rule } from "../types.ts";

export const email: Rule = {
  key: "rule_email",
  action: "block",
  appliesTo: ["charge"],
  check(subject, policy, features) {
    const domain = emailDomain(subject.email);
    if (!domain) return null;
    if (policy.blocklist.email_providers.includes(domain)) {
      return { message: `email provider ${domain} is blocked`, observed: domain, limit: null };
    }
    if (features.disposableDomains.has(domain)) {
      return { message: `disposable email domain ${domain}`, observed: domain, limit: null };
    }
    return null;
  },
};

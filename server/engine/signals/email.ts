/** The email: a relay, a disposable or mistyped domain, a domain new to the site, a random name. */
import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import { emailDomain, looksLikeAPerson } from "../email-domain.ts";
import { MAILBOX_PROVIDERS, typoOf } from "../email-typo.ts";
import { madeUpElsewhere } from "../rules/email.ts";
import { SIGNALS } from "./declarations.ts";
import { logCount, type Measuring, plural } from "./measure.ts";

export function emailSignals(m: Measuring): void {
  const { subject, features, add } = m;
  const domain = emailDomain(subject.email);
  if (!domain) return;
  const relay = RELAY_EMAIL_DOMAINS.has(domain);
  if (relay) add("relay_email", 1, `privacy relay address (${domain})`);
  else if (features.disposableDomains.has(domain))
    add("disposable_email", 1, `disposable email domain ${domain}`);
  else if (typoOf(domain))
    add("email_typo", 1, `email domain ${domain} looks like a typo of ${typoOf(domain)}`);
  if (!relay && !MAILBOX_PROVIDERS.has(domain)) newDomainSignals(m, domain);
  const randomness = features.emailRandomness;
  if (!relay && randomness && randomness.score > 0.5) {
    add(
      "random_email",
      (randomness.score - 0.5) * 2,
      `email's local part looks random (score ${randomness.score.toFixed(2)})`,
    );
  }
}

/** A signup's domain first seen on this site this hour, and the made-up addresses at it. */
function newDomainSignals({ subject, features, add }: Measuring, domain: string): void {
  const { seen, hour } = SIGNALS.new_email_domain.counts;
  if (subject.type !== "signup" || !seen.asked(features)) return;
  const thisHour = hour.of(features);
  if (seen.of(features).domain > thisHour.domain) return;
  if (features.disposableDomains.has(domain) || typoOf(domain)) return;
  add("new_email_domain", 1, `${domain} first seen on this site this hour`);
  // Only made-up addresses count (decision 030): a company's people are not a farm.
  const randomness = features.emailRandomness?.random ?? false;
  if (looksLikeAPerson(subject.email, randomness)) return;
  const made = SIGNALS.domain_signups.counts.hour.of(features);
  const elsewhere = madeUpElsewhere({
    domainMadeUp: made.domainMadeUp,
    domainMadeUpNet: made.domainMadeUpNet,
  });
  add(
    "domain_signups",
    logCount(elsewhere, 3),
    `${elsewhere} other signup${plural(elsewhere)} with made-up addresses at ${domain} this hour from other networks`,
  );
}

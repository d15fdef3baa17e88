/**
 * Everything a screened event is judged with, short of the counts themselves: its features,
 * its hashed identities, the probes to count and the Stripe history to look up. Shared by the
 * live screening and the backtest's replay, so both judge an event the same way.
 */

import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { ScreenEvent, Unavailable } from "../../../shared/schemas/screening.ts";
import { emailDomain, looksLikeAPerson } from "../../engine/email-domain.ts";
import { MAILBOX_PROVIDERS } from "../../engine/email-typo.ts";
import { RELAY_NETWORKS } from "../../engine/rules/timezone-mismatch.ts";
import type { EventSubject, Features, Policy } from "../../engine/types.ts";
import { memo } from "../../lib/memo.ts";
import { withCollected } from "./features/collected.ts";
import {
  FEATURES,
  type FeatureFunctions,
  featuresOf,
  safely,
  subjectOf,
} from "./features/event-features.ts";
import { type Identities, identitiesOf } from "./features/identities.ts";
import { ipKeys } from "./features/identity.ts";
import { type Probe, probesFor } from "./probes.ts";
import type { HistoryQuery } from "./screening.repository.ts";

const DAY_SECONDS = 86_400;
const ipKeysOf = memo(ipKeys);

export type ScreeningInputs = {
  subject: EventSubject;
  features: Features;
  ids: Identities;
  probes: Probe[];
  history: HistoryQuery | null;
  /** Features that could not be computed (null in `features`), and why. */
  unavailable: Unavailable[];
};

export function screeningInputs(
  event: ScreenEvent,
  policy: Policy,
  base: Features,
  at: Date,
  /** The account's digest key (identities.ts). */
  key: string,
  /** What warden.js collected, filling what the backend did not send. */
  collected: CollectedSignals | null = null,
  compute: FeatureFunctions = FEATURES,
): ScreeningInputs {
  const subject = withCollected(subjectOf(event), collected);
  const unavailable: Unavailable[] = [];
  const features = featuresOf(subject, policy, base, unavailable, compute);
  const domain = emailDomain(subject.email);
  const ip = subject.ip;
  const keys = ip ? safely("ip_network", () => ipKeysOf(ip), null, unavailable) : null;
  const ids = identitiesOf(
    subject,
    {
      normalizedEmail: features.normalizedEmail ?? null,
      ipKey: keys?.ip ?? null,
      subnetKey: keys?.subnet ?? null,
      // A company's secure-web gateway spans several /24s of one provider: one network.
      gatewayKey:
        features.geo?.asn && RELAY_NETWORKS.has(features.geo.asn) ? `AS${features.geo.asn}` : null,
      networkKey: features.geo?.hosting && features.geo.asn ? `AS${features.geo.asn}` : null,
      domainKey:
        domain && !MAILBOX_PROVIDERS.has(domain) && !RELAY_EMAIL_DOMAINS.has(domain)
          ? domain
          : null,
      madeUp: !looksLikeAPerson(subject.email, features.emailRandomness?.random ?? false),
      disposable: domain !== null && features.disposableDomains.has(domain),
    },
    key,
  );
  const farming = policy.settings.rule_farming;
  const history: HistoryQuery | null =
    policy.enabled.rule_farming &&
    farming.refunds &&
    subject.type === "checkout" &&
    (subject.email || subject.cardFingerprint)
      ? {
          email: subject.email,
          card: subject.cardFingerprint,
          since: Math.floor(at.getTime() / 1000) - farming.refund_window_days * DAY_SECONDS,
        }
      : null;
  return {
    subject,
    features,
    ids,
    probes: probesFor(subject, ids, policy, at, key, features),
    history,
    unavailable,
  };
}

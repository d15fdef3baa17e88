/**
 * What to count before judging a screened event: one probe per number the rules need, over
 * the windows the policy names (only for rules that are on). The repository answers every
 * probe in one query; countsOf reads the answers back into the engine's Counts.
 */
import { emptyCounts } from "../../engine/counts.ts";
import type { Counts, EventSubject, Policy } from "../../engine/types.ts";
import { digest, type Identities, type IdentityKind, legacyDigest } from "./identities.ts";

export type Probe = {
  /** Where the answer goes in Counts, e.g. "signupsLastHour.ip". */
  name: string;
  kind: IdentityKind;
  value: string;
  /** The same identity's unkeyed digest: rows stored before keyed digests count too. */
  legacy?: string;
  since: Date;
  types?: readonly string[];
  measure: "count" | "distinctSubject" | "distinctCard";
  /** Only events Warden did not block (a blocked trial did not start). */
  notBlocked?: boolean;
  /** Only rows with this hashed promo code / of this hashed user (keyed, and unkeyed). */
  promo?: string;
  legacyPromo?: string;
  user?: string;
  legacyUser?: string;
  /** Left out of distinct counts: this event's own subject or card. */
  except?: string | null;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function probesFor(
  subject: EventSubject,
  ids: Identities,
  policy: Policy,
  now: Date,
  /** The account's digest key (identities.ts), for identities hashed here. */
  key: string,
): Probe[] {
  const on = policy.enabled;
  const s = policy.settings;
  const v = ids.values;
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const probes: Probe[] = [];
  const add = (
    name: string,
    kind: IdentityKind,
    rest: Omit<Probe, "name" | "kind" | "value" | "legacy">,
  ) => {
    const value = v[kind];
    if (value) probes.push({ name, kind, value, legacy: ids.legacy[kind], ...rest });
  };
  const type = subject.type;

  if (on.rule_ip && type === "trial_start") {
    const since = ago(s.rule_ip.window_days * DAY);
    // Other accounts' trials: the same user id again is a retry. No IP: it is shared (NAT).
    for (const kind of ["device", "email"] as const) {
      add(`priorTrials.${kind}`, kind, {
        since,
        types: ["trial_start"],
        measure: "distinctSubject",
        notBlocked: true,
        except: v.user ?? null,
      });
    }
  }
  if (on.rule_promo_abuse && type === "promo_redemption" && v.promo) {
    for (const kind of ["email", "device", "card"] as const) {
      add(`promoRedeemedBy.${kind}`, kind, {
        since: ago(400 * DAY),
        types: ["promo_redemption"],
        measure: "count",
        notBlocked: true,
        promo: v.promo,
        legacyPromo: ids.legacy.promo,
      });
    }
  }
  if (on.rule_promo_abuse && type === "referral" && subject.referrerUserId) {
    const referrer = digest(key, "user", subject.referrerUserId);
    const legacyReferrer = legacyDigest("user", subject.referrerUserId);
    for (const kind of ["device", "ip", "card", "email"] as const) {
      add(`referrerShares.${kind}`, kind, {
        since: ago(400 * DAY),
        measure: "count",
        user: referrer,
        legacyUser: legacyReferrer,
      });
    }
  }
  if (on.rule_scraping && type === "request") {
    for (const kind of ["ip", "device"] as const) {
      add(`requestsLastMinute.${kind}`, kind, {
        since: ago(MINUTE),
        types: ["request"],
        measure: "count",
      });
    }
  }
  if (on.rule_farming && type === "signup" && s.rule_farming.accounts) {
    const since = ago(s.rule_farming.window_days * DAY);
    for (const kind of ["device", "card"] as const) {
      add(`accountsOn.${kind}`, kind, { since, measure: "distinctSubject", except: ids.subject });
    }
  }
  if (on.rule_signup_velocity && type === "signup") {
    for (const kind of ["ip", "subnet", "device"] as const) {
      add(`signupsLastHour.${kind}`, kind, {
        since: ago(HOUR),
        types: ["signup"],
        measure: "count",
      });
    }
  }
  if (on.rule_promo_velocity && type === "promo_redemption") {
    const types = ["promo_redemption"];
    add("promo.codeLast10Minutes", "promo", { since: ago(10 * MINUTE), types, measure: "count" });
    add("promo.ipLastHour", "ip", { since: ago(HOUR), types, measure: "count" });
    add("promo.deviceLastHour", "device", { since: ago(HOUR), types, measure: "count" });
  }
  if (on.rule_cc_reuse && v.card) {
    add("usersOn.card", "card", {
      since: ago(s.rule_cc_reuse.window_days * DAY),
      measure: "distinctSubject",
      except: ids.subject,
    });
    for (const kind of ["user", "email", "ip", "device"] as const) {
      add(`cardsLastHour.${kind}`, kind, {
        since: ago(HOUR),
        measure: "distinctCard",
        except: v.card,
      });
    }
  }
  if (on.rule_device_fingerprint_reuse) {
    add("usersOn.device", "device", {
      since: ago(s.rule_device_fingerprint_reuse.window_days * DAY),
      measure: "distinctSubject",
      except: ids.subject,
    });
  }
  if (on.rule_email && type === "signup" && s.rule_email.disposable_signups_per_hour !== null) {
    add("disposableSignupsLastHour", "disposable", {
      since: ago(HOUR),
      types: ["signup"],
      measure: "count",
    });
  }
  return probes;
}

/**
 * Whether any probe, under any policy, can count a counting row of this kind stored for an
 * event of this type: a row nothing can count is not stored (decision 018). probesFor's probes
 * by subnet and by disposable email ask for signups only, by promo code for promo redemptions
 * only, and by user only count distinct cards, so a user row without a card counts nowhere;
 * every other kind has a probe over every type. Not the policy's: rows outlive a policy (up to
 * 400 days), so this is what any policy could ask. probes.test.ts checks it against probesFor
 * for every rule, type and identity.
 */
export function countable(kind: IdentityKind, type: string, card: boolean): boolean {
  switch (kind) {
    case "subnet":
    case "disposable":
      return type === "signup";
    case "promo":
      return type === "promo_redemption";
    case "user":
      return card;
    default:
      return true;
  }
}

/** The engine's Counts from the answers to `probes` (a probe not asked counts 0). */
export function countsOf(probes: readonly Probe[], answers: readonly number[]): Counts {
  const counts = emptyCounts();
  const target = counts as unknown as Record<string, Record<string, number> | number>;
  for (let i = 0; i < probes.length; i++) {
    const [group, field] = pathOf((probes[i] as Probe).name);
    const answer = answers[i] ?? 0;
    if (field === undefined) target[group] = answer;
    else (target[group] as Record<string, number>)[field] = answer;
  }
  return counts;
}

// Probe names are a few constants: split each once (a backtest asks for millions).
const paths = new Map<string, [string, string | undefined]>();
function pathOf(name: string): [string, string | undefined] {
  let path = paths.get(name);
  if (!path) {
    path = name.split(".") as [string, string | undefined];
    paths.set(name, path);
  }
  return path;
}

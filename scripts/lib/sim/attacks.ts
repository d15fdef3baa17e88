/**
 * Attacks, each with the evasions real ones use (rotated and fresh email domains, device
 * resets, residential proxies, stealth browsers, sleep jitter). Every event here is labelled
 * an attack; one let through is a miss. Account attacks: account-attacks.ts; scripted ones:
 * bot-attacks.ts; those that stay under what the rules count: careful-attacks.ts; what they
 * are made of: attacker.ts. The attack the default weights never saw (share 0: in no world's
 * mix unless asked for): unseen-attack.ts.
 */
import {
  accountFarm,
  disposableFarm,
  promoStuffing,
  referralRing,
  trialFarm,
} from "./account-attacks.ts";
import { cardTesting, credentialStuffing, headless } from "./bot-attacks.ts";
import { agedReferralRing, cardFarm, hostingBurst } from "./careful-attacks.ts";
import type { Population } from "./population.ts";
import { refundAbuser } from "./refunds.ts";
import { relayPromoFarm } from "./unseen-attack.ts";

export const ATTACKS: readonly Population[] = [
  disposableFarm,
  trialFarm,
  promoStuffing,
  cardTesting,
  headless(false),
  headless(true),
  accountFarm,
  referralRing,
  credentialStuffing,
  refundAbuser,
  cardFarm,
  agedReferralRing,
  hostingBurst,
  relayPromoFarm,
];

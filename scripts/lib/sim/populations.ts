/**
 * Ordinary traffic: the people a merchant wants, each population a reality that trips naive
 * rules (shared addresses, shared devices, odd time zones, relay emails, password managers,
 * no JavaScript). Every event here is labelled ordinary; any block of one is a false positive.
 * Where they are: ordinary-places.ts; what they do: ordinary-habits.ts; who brings whom
 * (referrals): ordinary-referrals.ts; who look like a farm (a company's team, a VPN provider's
 * crowd, machine-like handles): ordinary-work.ts; how one is made: ordinary-person.ts.
 */
import {
  clockSkew,
  keyboardOnly,
  launchPromo,
  noCollector,
  oldBrowser,
  passwordManager,
  plusAndDots,
  privacyRelay,
  retryTypo,
  returning,
} from "./ordinary-habits.ts";
import {
  consumerVpn,
  corporateVpn,
  homeBroadband,
  householdShared,
  mobileCgnat,
  officeOnboarding,
  traveller,
  universityNat,
} from "./ordinary-places.ts";
import { influencerReferrals, referralFriends } from "./ordinary-referrals.ts";
import { companyTeam, oddHandle, vpnCrowd } from "./ordinary-work.ts";
import type { Population } from "./population.ts";
import { legitRefund } from "./refunds.ts";

export const ORDINARY: readonly Population[] = [
  homeBroadband,
  mobileCgnat,
  officeOnboarding,
  universityNat,
  householdShared,
  traveller,
  consumerVpn,
  corporateVpn,
  privacyRelay,
  plusAndDots,
  launchPromo,
  returning,
  retryTypo,
  passwordManager,
  keyboardOnly,
  clockSkew,
  noCollector,
  oldBrowser,
  legitRefund,
  referralFriends,
  influencerReferrals,
  companyTeam,
  vpnCrowd,
  oddHandle,
];

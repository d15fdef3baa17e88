/** Counts for a subject nothing was seen before: every number zero. */
import type { Counts } from "./types.ts";

export function emptyCounts(): Counts {
  return {
    priorTrials: { device: 0, ip: 0, email: 0 },
    promoRedeemedBy: { email: 0, device: 0, card: 0 },
    referrerShares: { device: 0, ip: 0, card: 0, email: 0 },
    requestsLastMinute: { ip: 0, device: 0 },
    accountsOn: { device: 0, card: 0 },
    signupsLastHour: { ip: 0, subnet: 0, device: 0 },
    promo: { codeLast10Minutes: 0, ipLastHour: 0, deviceLastHour: 0 },
    usersOn: { card: 0, device: 0 },
    cardsLastHour: { user: 0, email: 0, ip: 0, device: 0 },
    disposableSignupsLastHour: 0,
  };
}

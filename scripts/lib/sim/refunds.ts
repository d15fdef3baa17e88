/**
 * Refund traffic: people whose past purchases Warden knows from Stripe's webhooks (their history
 * rides on their first screening in the hour; the driver delivers it first). Refund abusers
 * bought, got refunds or filed chargebacks, and come back to buy again with the same email or
 * card, or a variant of them; ordinary customers once had a legitimate refund and buy again.
 */
import { BROWSERS } from "../end-users.ts";
import { type Actor, browsing, eventOf, MINUTE, type SimEvent } from "./journey.ts";
import { HOME_WEIGHTS } from "./networks.ts";
import { actorOf, type Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import type { PastCharge } from "./stripe-history.ts";
import { card, deviceId, nameOf } from "./world.ts";

/** Someone at home who has paid the shop before: an email and a card on file at Stripe. */
function customer(pop: Population, r: Rng, id: string): Actor {
  const net = r.weighted(HOME_WEIGHTS);
  return actorOf(pop, id, {
    userId: `u_${pop.name}_${id}`,
    email: nameOf(r, r.int(0, 1e6)).email,
    ip: net.ip(r),
    zone: r.pick(net.zones),
    device: deviceId(r),
    ua: r.pick(BROWSERS),
    card: card(r),
  });
}

/** A purchase by `who`, `daysAgo` days before the hour. */
function purchase(r: Rng, who: Actor, daysAgo: number): PastCharge {
  const amount = r.int(9, 99) * 100;
  return { id: `ch_sim_${r.hex(20)}`, email: who.email, card: who.card ?? "", amount, daysAgo };
}

const refundOf = (r: Rng, past: PastCharge, share = 1) => ({
  ...past,
  refund: { amount: Math.round(past.amount * share), after: r.int(1, Math.min(14, past.daysAgo)) },
});

/** The visit: a login (a signup under a new email), a few pages, one or two checkouts. */
function visit(r: Rng, actor: Actor, start: number, returning: boolean, history: PastCharge[]) {
  const first = { ...eventOf(r, actor, returning ? "login" : "signup", start), history };
  const buy = start + r.int(2, 10) * MINUTE;
  const events: SimEvent[] = [first, ...browsing(r, actor, start + 1, buy, r.int(0, 2))];
  const charge = () => ({ amount: r.int(9, 99) * 100, currency: "usd" });
  events.push(eventOf(r, actor, "checkout", buy, charge()));
  if (r.chance(0.3))
    events.push(eventOf(r, actor, "checkout", buy + r.int(5, 30) * MINUTE, charge()));
  return events;
}

/** Serial refunds (2-4 of 3-6 purchases) or a chargeback, all within the last 170 days. */
function abuse(r: Rng, who: Actor): PastCharge[] {
  if (r.chance(0.6)) {
    const bought = Array.from({ length: r.int(3, 6) }, () => purchase(r, who, r.int(15, 170)));
    const refunds = r.int(2, Math.min(4, bought.length));
    return bought.map((past, i) => (i < refunds ? refundOf(r, past) : past));
  }
  const bought = Array.from({ length: r.int(1, 3) }, () => purchase(r, who, r.int(40, 170)));
  const [disputed, ...rest] = bought as [PastCharge, ...PastCharge[]];
  const reason = r.pick(["fraudulent", "product_not_received", "subscription_canceled"]);
  return [{ ...disputed, dispute: { reason, after: r.int(20, 39) } }, ...rest];
}

/** How the abuser comes back: which of the email and card Stripe saw they keep. */
function comeback(r: Rng, who: Actor): Actor {
  const [local, domain] = who.email.split("@") as [string, string];
  const back = r.weighted<Partial<Actor>>([
    [{}, 4],
    [{ card: card(r) }, 2],
    [{ email: nameOf(r, r.int(0, 1e6)).email }, 2],
    // A +tag on the same inbox and a new card: the email Stripe has is not the one screened.
    [{ email: `${local}+${r.int(2, 99)}@${domain}`, card: card(r) }, 1],
    // A new email and a new card on the same device: nothing Stripe saw.
    [{ email: nameOf(r, r.int(0, 1e6)).email, card: card(r) }, 1],
  ]);
  // A new email is a new account.
  return { ...who, ...back, ...(back.email ? { userId: `${who.userId}_2` } : {}) };
}

export const refundAbuser: Population = {
  name: "refund_abuser",
  payoff: ["checkout"],
  attack: true,
  share: 12,
  about:
    "bought, got 2-4 refunds or filed a chargeback, and buys again: same email and card (40%), a new card (20%), a new email (20%), a +tag and a new card (10%), both new (10%)",
  targetedBy: ["template_refund_abuser_flag"],
  group(r, n, start) {
    const who = customer(this, r, String(n));
    const back = comeback(r, who);
    return visit(r, back, start, back.email === who.email, abuse(r, who));
  },
};

/** One refund in 180 days; some have an older one too, a few a second (partial) one. */
function honest(r: Rng, who: Actor): PastCharge[] {
  const bought = Array.from({ length: r.int(1, 4) }, () => purchase(r, who, r.int(20, 170)));
  const [refunded, ...rest] = bought as [PastCharge, ...PastCharge[]];
  const history = [refundOf(r, refunded), ...rest];
  if (r.chance(0.15)) history.push(refundOf(r, purchase(r, who, r.int(200, 330))));
  // A downgrade refunded pro rata: a second refund in the window.
  if (r.chance(0.08)) history.push(refundOf(r, purchase(r, who, r.int(5, 60)), 0.5));
  return history;
}

export const legitRefund: Population = {
  name: "legit_refund",
  attack: false,
  share: 5,
  about:
    "customers refunded once (the wrong plan, a double charge) buying again; some with an older refund, a few with a second, partial one",
  group(r, n, start) {
    const who = customer(this, r, String(n));
    return visit(r, who, start, true, honest(r, who));
  },
};

/**
 * The mail domains of bench:screen's end users, and the emails made of them; the names are the
 * simulator's (scripts/lib/end-users.ts).
 */
import { FIRST_NAMES, LAST_NAMES } from "../../../lib/end-users.ts";
import { int, pick, weighted } from "./random.ts";

const DOMAINS: [string, number][] = [
  ["gmail.com", 40],
  ["yahoo.com", 10],
  ["outlook.com", 10],
  ["hotmail.com", 8],
  ["icloud.com", 8],
  ["proton.me", 4],
  ["gmx.de", 4],
  ["orange.fr", 4],
  ["acme-corp.com", 6],
  ["mailinator.com", 2],
  ["yopmail.com", 2],
  ["guerrillamail.com", 2],
];

/** An email for person `n` (Gmail ones with the aliases abusers use). */
export function emailFor(r: () => number, n: number): { email: string; aliases: string[] } {
  const domain = weighted(r, DOMAINS);
  const first = pick(r, FIRST_NAMES);
  const last = pick(r, LAST_NAMES);
  // About 3% random-looking local parts (what rule_entropy looks for).
  const local =
    r() < 0.03
      ? Array.from({ length: int(r, 9, 14) }, () =>
          pick(r, [..."bcdfghjklmnpqrstvwxz0123456789"]),
        ).join("")
      : pick(r, [`${first}.${last}${n}`, `${first}${last}${n % 97}`, `${first[0]}${last}${n}`]);
  const aliases =
    domain === "gmail.com"
      ? [`${local.replace(".", "")}+promo@gmail.com`, `${local.split("").join(".")}@googlemail.com`]
      : [];
  return { email: `${local}@${domain}`, aliases };
}

/** The names and mail domains of bench:screen's end users, and the emails made of them. */
import { int, pick, weighted } from "./random.ts";

const FIRST = [
  "james",
  "mary",
  "john",
  "patricia",
  "robert",
  "jennifer",
  "michael",
  "linda",
  "david",
  "elizabeth",
  "william",
  "barbara",
  "richard",
  "susan",
  "joseph",
  "jessica",
  "thomas",
  "sarah",
  "carlos",
  "maria",
  "lukas",
  "sophie",
  "pierre",
  "camille",
  "arjun",
  "priya",
  "yuki",
  "haruto",
  "oliver",
  "amelia",
  "noah",
  "emma",
  "liam",
  "olivia",
  "ana",
  "joao",
];
const LAST = [
  "smith",
  "johnson",
  "williams",
  "brown",
  "jones",
  "garcia",
  "miller",
  "davis",
  "martin",
  "bernard",
  "muller",
  "schmidt",
  "schneider",
  "sharma",
  "patel",
  "tanaka",
  "sato",
  "silva",
  "santos",
  "taylor",
  "wilson",
  "moore",
  "clark",
  "lewis",
  "walker",
  "hall",
  "young",
];
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
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
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

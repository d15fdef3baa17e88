import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emailRandomness } from "./entropy.ts";

// Names and words the model was not trained on (build-training-text.ts).
const heldOut: { first: string[]; last: string[]; words: string[] } = JSON.parse(
  readFileSync(new URL("held-out-names.json", import.meta.url), "utf8"),
);

// mulberry32: small, seeded, so the rates below are the same on every run.
function prng(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: T[]): T => list[int(list.length)] as T;
  return { int, pick };
}

function realLocalParts(count: number, seed: number): string[] {
  const { int, pick } = prng(seed);
  const year = () => String(1950 + int(60));
  const patterns: (() => string)[] = [
    () => `${pick(heldOut.first)}.${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)}${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)}_${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)}-${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)[0]}${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)[0]}.${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)}.${pick(heldOut.last)[0]}`,
    () => `${pick(heldOut.last)}.${pick(heldOut.first)}`,
    () => `${pick(heldOut.first)}.${pick(heldOut.last)}${year()}`,
    () => `${pick(heldOut.first)}${pick(heldOut.last)}${int(100)}`,
    () => `${pick(heldOut.first)}${year()}`,
    () => `${pick(heldOut.first)}.${pick(heldOut.first)[0]}.${pick(heldOut.last)}`,
    () => `${pick(heldOut.first)[0]}${pick(heldOut.first)[0]}${pick(heldOut.last)}`,
    () => `${pick(heldOut.words)}${pick(heldOut.words)}`,
    () => `${pick(heldOut.words)}.${pick(heldOut.first)}`,
    () => `${pick(heldOut.first)}${pick(heldOut.words)}${int(10)}`,
    () => `the${pick(heldOut.last)}s`,
    () => `${pick(heldOut.first)}.${pick(heldOut.last)}.${int(1000)}`,
  ];
  return Array.from({ length: count }, () => pick(patterns)());
}

function randomLocalParts(count: number, seed: number): string[] {
  const { int } = prng(seed);
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: count }, () =>
    Array.from({ length: 8 + int(9) }, () => alphabet[int(alphabet.length)]).join(""),
  );
}

describe("emailRandomness on generated sets", () => {
  const real = realLocalParts(1000, 1);
  const random = randomLocalParts(1000, 2);
  const flagged = (list: string[]) =>
    list.filter((local) => emailRandomness(`${local}@example.com`).random);
  const falsePositives = flagged(real);
  const hits = flagged(random);
  console.log(
    `emailRandomness: false-positive rate ${(falsePositives.length / 10).toFixed(1)}% on 1000 real-looking, hit rate ${(hits.length / 10).toFixed(1)}% on 1000 random`,
  );

  it("flags at most 3% of real-looking addresses", () => {
    expect(falsePositives.length, falsePositives.slice(0, 20).join(" ")).toBeLessThanOrEqual(30);
  });

  it("flags at least 90% of random local parts", () => {
    const missed = random.filter((local) => !hits.includes(local));
    expect(hits.length, missed.slice(0, 20).join(" ")).toBeGreaterThanOrEqual(900);
  });
});

describe("emailRandomness on single addresses", () => {
  it.each([
    ["a name", "john.smith@example.com", false],
    ["a name and a year", "john.smith1987@example.com", false],
    ["initials and a surname", "jd.morrison@example.com", false],
    ["a name with a +tag", "maria.garcia+shop@example.com", false],
    ["an underscore name", "anna_kowalski@example.com", false],
    ["random letters and digits", "xk7qzp3v9w@example.com", true],
    ["letters between digits", "jd8f7g6h5@example.com", true],
    ["random letters only", "qxzvbkwpmt@example.com", true],
    ["random letters with a tag", "zqxjkvbwpf+x@example.com", true],
  ])("%s: %s → random %s", (_name, email, random) => {
    expect(emailRandomness(email).random).toBe(random);
  });

  it.each([
    "abc@x.com",
    "xkqz@x.com",
    "x7q9@x.com",
    "123456789@qq.com",
    "a1234567@x.com",
    "",
    "@x.com",
  ])("does not judge %j", (email) => {
    expect(emailRandomness(email)).toEqual({ score: 0, random: false });
  });

  it("scores random text above names", () => {
    const name = emailRandomness("katherine.walsh@example.com").score;
    const noise = emailRandomness("q8zk2xv7w@example.com").score;
    expect(name).toBeLessThan(0.75);
    expect(noise).toBeGreaterThan(1);
  });
});

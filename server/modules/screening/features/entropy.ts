import { readFileSync } from "node:fs";

/**
 * How random an email's local part looks, judged by a character-bigram model of names and
 * English words (training-text.txt, built by build-training-text.ts). Score = the average
 * surprise per transition, in bits, divided by that of uniformly random letters and digits
 * (log2 36): mostly 0.5–0.85 for names, 0.9–1.5 for generated strings; random at 0.92.
 */
export type EmailRandomness = { score: number; random: boolean };

const START = 26;
const END = 26; // as a next symbol: row START and column END share index 26 in a 27×27 table
const SMOOTHING = 0.1;
const RANDOM_BITS = Math.log2(36);
const INITIAL_BITS = Math.log2(26);
const THRESHOLD = 0.92; // tuned on entropy.test.ts's generated sets (and three other seeds): see DATA.md
const YEAR = /^(?:19[4-9]\d|20[0-4]\d)$/;

let surprise: Float64Array | undefined; // bits for symbol b after a: surprise[a * 27 + b]

/** Builds bigram surprisals (in bits) from words of lowercase letters, one per line. */
function trainBigrams(words: string[]): Float64Array {
  const counts = new Float64Array(27 * 27);
  for (const word of words) {
    let previous = START;
    for (const char of word) {
      const code = char.charCodeAt(0) - 97;
      counts[previous * 27 + code] = (counts[previous * 27 + code] ?? 0) + 1;
      previous = code;
    }
    counts[previous * 27 + END] = (counts[previous * 27 + END] ?? 0) + 1;
  }
  const bits = new Float64Array(27 * 27);
  for (let a = 0; a < 27; a++) {
    let total = 0;
    for (let b = 0; b < 27; b++) total += (counts[a * 27 + b] ?? 0) + SMOOTHING;
    for (let b = 0; b < 27; b++)
      bits[a * 27 + b] = -Math.log2(((counts[a * 27 + b] ?? 0) + SMOOTHING) / total);
  }
  return bits;
}

function model(): Float64Array {
  if (surprise) return surprise;
  const text = readFileSync(new URL("training-text.txt", import.meta.url), "utf8");
  const words = text.split("\n").filter((line) => /^[a-z]+$/.test(line));
  surprise = trainBigrams(words);
  return surprise;
}

// Bits for a run of letters as a word, from its start to its end.
function wordBits(bits: Float64Array, run: string): number {
  let total = 0;
  let previous = START;
  for (const char of run) {
    const code = char.charCodeAt(0) - 97;
    total += bits[previous * 27 + code] ?? 0;
    previous = code;
  }
  return total + (bits[previous * 27 + END] ?? 0);
}

// Bits for a run of letters: a lone letter is an initial ("j" in j.smith), one of 26, and up to
// two initials may be glued to a name ("dmfenwick"), whichever reading is cheaper.
function letterBits(bits: Float64Array, run: string): number {
  if (run.length === 1) return INITIAL_BITS;
  let best = wordBits(bits, run);
  for (let k = 1; k <= 2 && run.length - k >= 3; k++) {
    best = Math.min(best, k * INITIAL_BITS + wordBits(bits, run.slice(k)));
  }
  return best;
}

// Bits for a run of digits: a trailing year or short number is what people add to a name;
// digits before or between letters cost what random characters would, plus one more for the
// switch itself, which names with a year never make.
function digitBits(run: string, last: boolean): number {
  if (last && YEAR.test(run)) return 4;
  if (last && run.length <= 3) return run.length * Math.log2(10);
  return (run.length + (last ? 0 : 1)) * RANDOM_BITS;
}

/**
 * Judges an email's local part (before any +tag). Parts of four characters or fewer, or with
 * fewer than two letters (QQ-style numbers), are not judged: score 0, random false.
 */
export function emailRandomness(email: string): EmailRandomness {
  const at = email.lastIndexOf("@");
  const local = (at === -1 ? email : email.slice(0, at)).toLowerCase().split("+")[0] ?? "";
  const runs = local.match(/[a-z]+|[0-9]+/g) ?? [];
  const letters = runs.filter((r) => /[a-z]/.test(r)).join("").length;
  const characters = runs.join("").length;
  if (characters <= 4 || letters < 2) return { score: 0, random: false };
  const bits = model();
  let total = 0;
  runs.forEach((run, i) => {
    total += /[a-z]/.test(run) ? letterBits(bits, run) : digitBits(run, i === runs.length - 1);
  });
  const letterRuns = runs.filter((r) => r.length > 1 && /[a-z]/.test(r)).length;
  // Per transition: each letter run of two or more adds a word-end transition to its letters.
  const score = Math.round((total / (characters + letterRuns) / RANDOM_BITS) * 1000) / 1000;
  return { score, random: score >= THRESHOLD };
}

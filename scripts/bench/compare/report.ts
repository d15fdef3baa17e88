/**
 * bench:compare's arithmetic and table, pure: per figure, the base's and the head's median over
 * the rounds with their range, the median of the per-round ratios head/base (each round's pair
 * ran back to back, so a machine that slows between rounds moves both), and for throughputs
 * each as a share of the bare route measured in the same round.
 */

/** What one server gave in one round; a figure it did not measure is missing or null. */
export type Figures = Partial<Record<FigureKey, number | null>>;

/** The bare route's throughputs in one round. */
export type BareFigures = Partial<Record<BareKey, number | null>>;

export type Round = {
  round: number;
  bare: BareFigures;
  /** database → tree → figures. */
  runs: Record<string, Partial<Record<"base" | "head", Figures>>>;
};

type BareKey = "screenClosed" | "screenPaced" | "webhooks";

type Figure = {
  key: string;
  name: string;
  /** Decimals shown. */
  digits: number;
  /** The bare route's figure a throughput is read against. */
  bare?: BareKey;
};

export const FIGURES = [
  { key: "closedPerSecond", name: "screenings/s, closed loop", digits: 0, bare: "screenClosed" },
  { key: "cpuMsPerScreening", name: "server CPU ms a screening, closed loop", digits: 3 },
  { key: "pacedServed", name: "served/s, paced", digits: 0, bare: "screenPaced" },
  { key: "pacedP50", name: "p50 ms, paced", digits: 2 },
  { key: "pacedP99", name: "p99 ms, paced", digits: 2 },
  { key: "pacedUnanswered", name: "unanswered, paced", digits: 0 },
  { key: "webhooksPerSecond", name: "webhook events/s", digits: 0, bare: "webhooks" },
  { key: "cpuMsPerEvent", name: "server CPU ms a webhook event", digits: 3 },
  { key: "rssAfterStartMb", name: "server RSS after start, MB", digits: 0 },
] as const satisfies readonly Figure[];

export type FigureKey = (typeof FIGURES)[number]["key"];

export type Spread = { median: number; min: number; max: number };

/** The middle value, or the mean of the two middle ones for an even count; NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median, least and most of the values that are numbers; null when there are none. */
export function spread(values: (number | null | undefined)[]): Spread | null {
  const known = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (known.length === 0) return null;
  return { median: median(known), min: Math.min(...known), max: Math.max(...known) };
}

/** head/base of each round where both were measured and the base is not 0. */
export function roundRatios(pairs: { base?: number | null; head?: number | null }[]): number[] {
  return pairs.flatMap(({ base, head }) =>
    typeof base === "number" && typeof head === "number" && base !== 0 ? [head / base] : [],
  );
}

/** `value` in percent of the bare route's `bare`; null when either is missing or bare is 0. */
export function percentOfBare(
  value: number | null | undefined,
  bare: number | null | undefined,
): number | null {
  return typeof value === "number" && typeof bare === "number" && bare !== 0
    ? (value / bare) * 100
    : null;
}

export type Row = {
  key: FigureKey;
  name: string;
  digits: number;
  base: Spread | null;
  head: Spread | null;
  /** Of the per-round ratios head/base. */
  ratio: Spread | null;
  /** Median over the rounds of each round's share of that round's bare route, in percent. */
  baseOfBare: number | null;
  headOfBare: number | null;
};

/** One row a figure measured on `database`. */
export function summarize(rounds: Round[], database: string): Row[] {
  const rows: Row[] = [];
  for (const figure of FIGURES) {
    const pairs = rounds.map((round) => ({
      base: round.runs[database]?.base?.[figure.key],
      head: round.runs[database]?.head?.[figure.key],
      bare: "bare" in figure ? round.bare[figure.bare] : null,
    }));
    const base = spread(pairs.map((p) => p.base));
    const head = spread(pairs.map((p) => p.head));
    if (!base && !head) continue;
    const ofBare = (tree: "base" | "head") =>
      spread(pairs.map((p) => percentOfBare(p[tree], p.bare)))?.median ?? null;
    rows.push({
      key: figure.key,
      name: figure.name,
      digits: figure.digits,
      base,
      head,
      ratio: spread(roundRatios(pairs)),
      baseOfBare: ofBare("base"),
      headOfBare: ofBare("head"),
    });
  }
  return rows;
}

const number = (value: number, digits: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** "1,234 (1,200–1,250)": the median, then the range when the rounds differ. */
function cell(s: Spread | null, digits: number): string {
  if (!s) return "";
  const range =
    number(s.min, digits) === number(s.max, digits)
      ? ""
      : ` (${number(s.min, digits)}–${number(s.max, digits)})`;
  return `${number(s.median, digits)}${range}`;
}

const percent = (value: number | null) => (value === null ? "–" : `${value.toFixed(1)} %`);

/** The Markdown table of one database's rows. */
export function compareTable(label: string, rows: Row[]): string {
  const lines = [
    `| ${label} | base: median (min–max) | head: median (min–max) | head/base: median (min–max) | % of the bare route: base / head |`,
    "|---|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const bare =
      row.baseOfBare === null && row.headOfBare === null
        ? ""
        : `${percent(row.baseOfBare)} / ${percent(row.headOfBare)}`;
    lines.push(
      `| ${row.name} | ${cell(row.base, row.digits)} | ${cell(row.head, row.digits)} | ${cell(row.ratio, 3)} | ${bare} |`,
    );
  }
  return lines.join("\n");
}

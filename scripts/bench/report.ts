/** What `npm run bench` collects from each benchmark (`--json <file>`), and its table. */

export type BenchResult = {
  name: string;
  value: number;
  unit: string;
  target?: string | null;
  bare?: { value: number; unit: string } | null;
  detail?: unknown;
};
export type Outcome =
  | { bench: string; status: "ok"; seconds: number; results: BenchResult[] }
  | { bench: string; status: "failed" | "missing"; seconds: number; error: string };

const number = (value: number) =>
  value >= 100 ? Math.round(value).toLocaleString("en-US") : String(Number(value.toFixed(1)));

const row = (cells: string[]) => `|${cells.map((cell) => (cell ? ` ${cell} ` : " ")).join("|")}|`;

/** The Markdown table: each figure beside its target and the bare route of the same run;
 * a rate's share of the bare route's rate (events/s against req/s: one event is one request). */
export function markdownTable(outcomes: Outcome[]): string {
  const rows = [
    "| benchmark | figure | measured | target | bare Fastify route, same run | share of bare |",
    "|---|---|---:|---:|---:|---:|",
  ];
  for (const outcome of outcomes) {
    if (outcome.status !== "ok") {
      rows.push(row([outcome.bench, `not measured: ${outcome.error}`, "", "", "", ""]));
      continue;
    }
    for (const result of outcome.results) {
      const bare = result.bare ? `${number(result.bare.value)} ${result.bare.unit}` : "";
      const share =
        result.bare?.unit.endsWith("/s") && result.unit.endsWith("/s")
          ? `${((result.value / result.bare.value) * 100).toFixed(1)} %`
          : "";
      rows.push(
        row([
          outcome.bench,
          result.name,
          `${number(result.value)} ${result.unit}`,
          result.target ?? "",
          bare,
          share,
        ]),
      );
    }
  }
  return rows.join("\n");
}

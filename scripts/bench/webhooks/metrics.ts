/** The server's own count of events per ingest statement, read from its /metrics. */
import { METRICS_TOKEN } from "./options.ts";

export type BatchTotals = Record<"read" | "write", { sum: number; count: number }>;

/** The ingest statements' batch-size histogram totals, from the server's /metrics. */
export async function batchSizes(base: string): Promise<BatchTotals> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const totals: BatchTotals = { read: { sum: 0, count: 0 }, write: { sum: 0, count: 0 } };
  for (const match of text.matchAll(
    /^warden_ingest_batch_size_(sum|count)\{statement="(read|write)"\} (\S+)$/gm,
  )) {
    const [, field, statement, value] = match as unknown as [
      string,
      "sum" | "count",
      "read" | "write",
      string,
    ];
    totals[statement][field] = Number(value);
  }
  return totals;
}

/** Events per statement between two readings of the totals. */
export function perStatement(before: BatchTotals, after: BatchTotals) {
  const mean = (s: "read" | "write") =>
    (after[s].sum - before[s].sum) / Math.max(1, after[s].count - before[s].count);
  return { read: mean("read"), write: mean("write") };
}

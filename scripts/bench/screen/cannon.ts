/** bench:screen's autocannon load (flat out, or at an overallRate) and what it reads from it. */
import type { Result } from "autocannon";
import { percentile, runLoad } from "../load.ts";
import type { Headers } from "./fill.ts";
import { ms, options } from "./options.ts";

export type CannonSummary = {
  connections: number;
  overallRate: number | null;
  seconds: number;
  requestsPerSecond: number;
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Latency of 2xx answers in ms, measured per response (sub-millisecond). */
  latency: { p50: number; p90: number; p99: number; max: number };
  /** autocannon's own histogram (whole milliseconds). */
  autocannonLatency: { p50: number; p99: number };
  non2xxSamples: string[];
};

type Shape = { connections: number; overallRate?: number };

function summarize(
  shape: Shape,
  result: Result,
  latencies: number[],
  samples: string[],
): CannonSummary {
  const at = (q: number) => percentile(latencies, q);
  return {
    connections: shape.connections,
    overallRate: shape.overallRate ?? null,
    seconds: result.duration,
    requestsPerSecond: result["2xx"] / result.duration,
    sent: result.requests.sent,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: latencies.at(-1) ?? 0 },
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99 },
    non2xxSamples: samples,
  };
}

/** One autocannon load of options.seconds; keeps the first five non-2xx answers. */
export async function cannon(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  shape: Shape,
): Promise<CannonSummary> {
  const samples: string[] = [];
  let lastSecond = 0;
  const { result, latencies, done } = await runLoad(
    label,
    {
      url,
      method: "POST",
      headers,
      connections: shape.connections,
      duration: options.seconds,
      timeout: 10,
      ...(shape.overallRate ? { overallRate: shape.overallRate } : {}),
      requests: [
        { method: "POST", headers, setupRequest: (request) => ({ ...request, body: body() }) },
      ],
      setupClient(client) {
        let status = 0;
        client.on("headers", (h: { statusCode: number }) => {
          status = h.statusCode;
        });
        client.on("body", (chunk: Buffer) => {
          if ((status < 200 || status > 299) && samples.length < 5) {
            samples.push(`${status} ${chunk.toString("utf8").slice(0, 500)}`);
          }
        });
      },
    },
    ({ elapsed, answered }) => {
      const detail = `${answered - lastSecond} req in the last second`;
      lastSecond = answered;
      return { percent: (elapsed / options.seconds) * 100, detail };
    },
  );
  const summary = summarize(shape, result, latencies, samples);
  done(
    `${summary.requestsPerSecond.toFixed(0)} req/s answered 2xx; p50 ${ms(summary.latency.p50)}, ` +
      `p99 ${ms(summary.latency.p99)}; non-2xx ${summary.non2xx}, socket errors ${summary.errors}`,
  );
  return summary;
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i/rate, sent when due over a
 * pool of keep-alive connections (a new one opens when all are busy, up to maxSockets; past
 * that, requests wait in the agent's queue), so a slow server cannot slow the load down and
 * hide its own queue (no coordinated omission). Latency counts from the moment the request is
 * handed to the agent (p50 … max); `fromDue` counts from when it was due, which also holds
 * this process's own timer lateness on a busy machine. For the bench's latency figure next to autocannon's, whose
 * overallRate sends each connection's share of a second back to back.
 */
import http from "node:http";

export type PacedResult = {
  offered: number;
  sent: number;
  seconds: number;
  achieved: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** The most requests that were waiting for an answer at once. */
  maxInFlight: number;
  /** Not answered within 10 s after the last was sent (the server fell behind). */
  unanswered: number;
  /** Due but not sent: maxInFlight requests were already waiting (the server fell behind). */
  dropped: number;
  fromDue: { p50: number; p99: number };
};

export async function pacedLoad(options: {
  url: string;
  rate: number;
  seconds: number;
  headers: Record<string, string>;
  body: () => string;
  maxSockets?: number;
  /** Past this many unanswered requests, due ones are dropped (counted), not queued. */
  maxInFlight?: number;
}): Promise<PacedResult> {
  const cap = options.maxInFlight ?? 1000;
  let dropped = 0;
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 256 });
  const latencies: number[] = [];
  const fromDue: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const total = Math.round(options.rate * options.seconds);
  const started = performance.now();
  const send = (due: number) => {
    const body = options.body();
    const sentAt = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...options.headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          inFlight--;
          const code = res.statusCode ?? 0;
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
          if (code >= 200 && code < 300) {
            ok++;
            const now = performance.now();
            latencies.push(now - sentAt);
            fromDue.push(now - due);
          } else non2xx++;
        });
      },
    );
    req.on("error", () => {
      inFlight--;
      errors++;
    });
    req.end(body);
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const dueCount = Math.min(total, Math.floor(((now - started) / 1000) * options.rate));
      while (sent + dropped < dueCount) {
        if (inFlight >= cap) dropped++;
        else {
          send(started + ((sent + dropped) * 1000) / options.rate);
          sent++;
        }
      }
      if (sent + dropped >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  // Let the last answers arrive (at most 10 s).
  const deadline = performance.now() + 10_000;
  while (inFlight > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  const unanswered = inFlight;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  fromDue.sort((a, b) => a - b);
  const quantile = (list: number[], q: number) =>
    list.length ? (list[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)] ?? 0) : 0;
  const at = (q: number) => quantile(latencies, q);
  return {
    offered: options.rate,
    sent,
    seconds,
    achieved: ok / seconds,
    ok,
    non2xx,
    errors,
    statusCodes,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
    maxInFlight,
    unanswered,
    dropped,
    fromDue: { p50: quantile(fromDue, 0.5), p99: quantile(fromDue, 0.99) },
  };
}

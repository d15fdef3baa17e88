/** bench:webhooks' closed-loop load of signed events, and what it reads from the answers. */
import { type Progress, percentile, runLoad } from "../load.ts";
import { options } from "./options.ts";

export type Load = {
  count: number;
  seconds: number;
  perSecond: number;
  statuses: Record<string, number>;
  answers: Record<string, number>;
  errors: number;
  p50: number;
  p99: number;
  samples: string[];
};

type Signed = { payload: string; signature: string };
type Limit = { count: number } | { seconds: number };

/** The HTTP statuses, the 200 answers' `status` and the first five other answers. */
function tallyAnswers() {
  const statuses: Record<string, number> = {};
  const answers: Record<string, number> = {};
  const samples: string[] = [];
  const onResponse = (status: number, text: string) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 200) {
      const answer = (JSON.parse(text) as { status?: string }).status ?? "?";
      answers[answer] = (answers[answer] ?? 0) + 1;
    } else if (samples.length < 5) samples.push(`${status} ${text.slice(0, 300)}`);
  };
  return { statuses, answers, samples, onResponse };
}

/** The progress line: answered of the count, or time of the seconds; the rate. */
const progressOf =
  (limit: Limit): Progress =>
  ({ elapsed, answered }) => {
    const rate = `${(answered / elapsed).toFixed(0)}/s`;
    return "count" in limit
      ? { percent: (answered / limit.count) * 100, detail: `${answered}/${limit.count} (${rate})` }
      : { percent: (elapsed / limit.seconds) * 100, detail: rate };
  };

/**
 * Sends `count` requests (or for `seconds`) from options.connections keep-alive connections,
 * each sending its next request when its previous answer arrived (closed loop). The load comes
 * from autocannon: with Node's http.request the generator took 0.37 ms of the shared
 * machine's CPU per event, with autocannon 0.26–0.31 (CPU the server under test loses).
 * Each event is signed as it is sent.
 */
export async function load(
  label: string,
  url: string,
  next: () => Signed,
  limit: Limit,
): Promise<Load> {
  const { statuses, answers, samples, onResponse } = tallyAnswers();
  let sent = 0;
  const total = "count" in limit ? limit.count : null;
  const { result, latencies, seconds, done } = await runLoad(
    label,
    {
      url,
      connections: options.connections,
      pipelining: 1,
      timeout: 30,
      ...("count" in limit ? { amount: limit.count } : { duration: limit.seconds }),
      requests: [
        {
          method: "POST",
          setupRequest: (request) => {
            const body = next();
            sent++;
            return {
              ...request,
              method: "POST",
              body: body.payload,
              headers: { "content-type": "application/json", "stripe-signature": body.signature },
            };
          },
          onResponse,
        },
      ],
    },
    progressOf(limit),
    (status) => status === 200,
  );
  const at = (q: number) => percentile(latencies, q);
  const errors = result.errors + result.timeouts;
  const summary = {
    count: total ?? sent,
    seconds,
    perSecond: latencies.length / seconds,
    statuses,
    answers,
    errors,
    p50: at(0.5),
    p99: at(0.99),
    samples,
  };
  done(
    `${summary.count} in ${seconds.toFixed(1)} s = ${summary.perSecond.toFixed(0)}/s answered 200; ` +
      `p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms; HTTP ${JSON.stringify(statuses)}` +
      (errors ? `; ${errors} socket errors or timeouts` : ""),
  );
  return summary;
}

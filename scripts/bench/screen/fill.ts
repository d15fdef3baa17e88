/** Fills the velocity windows before bench:screen measures anything. */
import { progressBar } from "../../lib/progress.ts";
import { options } from "./options.ts";

export type Headers = Record<string, string>;
type Tally = {
  statuses: Record<string, number>;
  decisions: Record<string, number>;
  samples: string[];
};

/** Sends `count` screenings, options.fillConcurrency at a time; what they were answered. */
export async function fill(
  label: string,
  url: string,
  headers: Headers,
  body: () => string,
  count: number,
) {
  const bar = progressBar(`${label}: filling the velocity windows`);
  const tally: Tally = { statuses: {}, decisions: {}, samples: [] };
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.fillConcurrency }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(url, { method: "POST", headers, body: body() });
        const text = await response.text();
        tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
        if (response.status === 200) {
          const decision = (JSON.parse(text) as { decision: string }).decision;
          tally.decisions[decision] = (tally.decisions[decision] ?? 0) + 1;
        } else if (tally.samples.length < 5) tally.samples.push(`${response.status} ${text}`);
        if (++done % 100 === 0 || done === count) {
          const rate = done / ((performance.now() - started) / 1000);
          bar.update((done / count) * 100, `${done}/${count} (${rate.toFixed(0)}/s)`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  bar.done(
    `${label}: ${count} screenings in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)}/s); ` +
      `decisions ${JSON.stringify(tally.decisions)}; HTTP ${JSON.stringify(tally.statuses)}`,
  );
  return { count, seconds, ...tally };
}

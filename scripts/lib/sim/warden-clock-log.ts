/**
 * For the simulation's integration tests: an embedded Warden started before a describe block's
 * tests and closed after them, pushing every time the run sets the server's clock to onto `times`.
 */
import { afterAll, beforeAll } from "vitest";
import { startWarden, type Warden } from "./warden.ts";

export function wardenLoggingClock(times: number[], use: (warden: Warden) => void): void {
  let warden: Warden | undefined;
  beforeAll(async () => {
    warden = await startWarden("embedded");
    const set = warden.clock.set;
    warden.clock.set = (ms) => {
      times.push(ms);
      set(ms);
    };
    use(warden);
  }, 60_000);
  afterAll(async () => {
    await warden?.close();
  });
}

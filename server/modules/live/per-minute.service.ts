/** The dashboard's chart: an account's decisions per minute over the last hour (app clock). */
import type { DecisionsPerMinute } from "../../../shared/schemas/live.ts";
import type { ScreeningRepository } from "../screening/screening.repository.ts";
import { minuteSeries, minuteSpan } from "./minute-series.ts";

export function createPerMinuteService({
  repo,
  now,
}: {
  repo: Pick<ScreeningRepository, "decisionsPerMinute">;
  now: () => Date;
}) {
  return {
    async lastHour(accountId: string): Promise<DecisionsPerMinute> {
      const at = now();
      const { from, to } = minuteSpan(at);
      return minuteSeries(at, await repo.decisionsPerMinute(accountId, from, to));
    },
  };
}

export type PerMinuteService = ReturnType<typeof createPerMinuteService>;

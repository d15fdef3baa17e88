import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_ALERTS, defaultAlertRows } from "./defaults.ts";
import { spikeWindows } from "./measure.ts";

const MIGRATIONS = join(import.meta.dirname, "../../../prisma/migrations");

describe("the default alerts", () => {
  it("are the ones the migration gave every account that existed before them", () => {
    const dir = readdirSync(MIGRATIONS).find((name) => name.endsWith("_baselines_and_alerts"));
    const sql = readFileSync(join(MIGRATIONS, dir as string, "migration.sql"), "utf8");
    const rows = [
      ...sql.matchAll(
        /^\s*\((\d+), '([^']+)', '(\w+)', '(\w+)', (NULL|'\w+'), (NULL|\d+)::double precision, (\d+), (\d+)\)/gm,
      ),
    ].map((m) => ({
      name: m[2],
      metric: m[3],
      mode: m[4],
      series: m[5] === "NULL" ? null : m[5]?.slice(1, -1),
      threshold: m[6] === "NULL" ? null : Number(m[6]),
      window_minutes: Number(m[7]),
      cooldown_minutes: Number(m[8]),
    }));
    expect(rows).toEqual(
      DEFAULT_ALERTS.map((a) => ({
        name: a.name,
        metric: a.metric,
        mode: a.mode,
        series: a.series,
        threshold: a.threshold,
        window_minutes: a.window_minutes,
        cooldown_minutes: a.cooldown_minutes,
      })),
    );
  });

  it("list in their order: each a millisecond after the one before", () => {
    const at = new Date("2026-11-30T00:00:00Z");
    expect(defaultAlertRows("a", at).map((r) => r.createdAt.getTime() - at.getTime())).toEqual([
      0, 1, 2, 3,
    ]);
  });
});

describe("the windows a spike is looked for over", () => {
  it("are the alert's, four and sixteen times it, up to the longest kept", () => {
    expect(spikeWindows(15, 1440)).toEqual([15, 60, 240]);
    expect(spikeWindows(120, 1440)).toEqual([120, 480, 1440]);
    expect(spikeWindows(60, 240)).toEqual([60, 240]);
    expect(spikeWindows(1440, 1440)).toEqual([1440]);
  });
});

/**
 * The training rows the shipped weights were fitted on, recorded by `npm run fit` beside the
 * weights (training-rows.json.gz, about what the fit reads: each event's world, seed, type,
 * label and signals). CI refits the recording in seconds instead of replaying 20,000 events,
 * and replays only the first events of every training play to show the recording is still
 * what today's code plays (test/simulation/fit.int.test.ts); `npm run fit -- --check` replays
 * everything.
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Labelled } from "./train.ts";

export const RECORDED_ROWS = resolve(import.meta.dirname, "training-rows.json.gz");

/** One play's rows, as recorded: [type, attack (1/0), signal, value, signal, value, …]. */
type RecordedPlay = { world: string; seed: number; rows: (string | number)[][] };

type Recording = { version: 1; signals: string[]; plays: RecordedPlay[] };

/** What of a collected row the fit reads, and the recording keeps. */
export function labelledOf(row: Labelled): Labelled {
  return {
    world: row.world,
    seed: row.seed,
    type: row.type,
    attack: row.attack,
    signals: row.signals,
  };
}

/** The recording of `plays` (each play's rows in traffic order), gzipped, the same bytes for the same rows. */
export function encodeRows(plays: readonly (readonly Labelled[])[]): Buffer {
  const signals = [...new Set(plays.flat().flatMap((r) => Object.keys(r.signals)))].sort();
  const index = new Map(signals.map((key, i) => [key, i]));
  const recording: Recording = {
    version: 1,
    signals,
    plays: plays.map((rows) => ({
      world: rows[0]?.world ?? "",
      seed: rows[0]?.seed ?? 0,
      rows: rows.map((r) => [
        r.type,
        r.attack ? 1 : 0,
        ...Object.entries(r.signals).flatMap(([key, value]) => [index.get(key) as number, value]),
      ]),
    })),
  };
  return gzipSync(JSON.stringify(recording), { level: 9 });
}

/** Every play's rows, in the order recorded. */
export function decodeRows(gzipped: Buffer): Labelled[][] {
  const recording = JSON.parse(gunzipSync(gzipped).toString("utf8")) as Recording;
  if (recording.version !== 1)
    throw new Error(`recorded rows: unknown version ${recording.version}`);
  return recording.plays.map((play) =>
    play.rows.map(([type, attack, ...pairs]) => {
      const signals: Record<string, number> = {};
      for (let i = 0; i < pairs.length; i += 2)
        signals[recording.signals[pairs[i] as number] as string] = pairs[i + 1] as number;
      return {
        world: play.world,
        seed: play.seed,
        type: String(type),
        attack: attack === 1,
        signals,
      };
    }),
  );
}

export async function readRecordedRows(file = RECORDED_ROWS): Promise<Labelled[][]> {
  return decodeRows(await readFile(file));
}

export async function writeRecordedRows(
  plays: readonly (readonly Labelled[])[],
  file = RECORDED_ROWS,
): Promise<void> {
  await writeFile(file, encodeRows(plays));
}

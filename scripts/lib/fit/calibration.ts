/**
 * Calibration (pure): events grouped by score band (0–9, 10–19, …, 90–100), each band's share
 * that was an attack beside the share the score stands for (its mean probabilityOf). A score
 * that means what it says has the two close.
 */
import { probabilityOf } from "../../../server/engine/score.ts";

export type Band = {
  /** Lowest and highest score in the band (the last band holds 100 too). */
  from: number;
  to: number;
  events: number;
  attacks: number;
  /** attacks / events (null: no event). */
  share: number | null;
  /** The mean probability of an attack the band's scores stand for (null: no event). */
  expected: number | null;
};

export function calibrationOf(
  items: readonly { score: number; attack: boolean }[],
  width = 10,
): Band[] {
  const count = Math.ceil(100 / width);
  const bands = Array.from({ length: count }, (_, i) => ({
    from: i * width,
    to: i === count - 1 ? 100 : (i + 1) * width - 1,
    events: 0,
    attacks: 0,
    probability: 0,
  }));
  for (const { score, attack } of items) {
    const i = Math.max(0, Math.min(count - 1, Math.floor(score / width)));
    const band = bands[i];
    if (!band) continue;
    band.events += 1;
    if (attack) band.attacks += 1;
    band.probability += probabilityOf(score);
  }
  return bands.map(({ probability, ...band }) => ({
    ...band,
    share: band.events === 0 ? null : band.attacks / band.events,
    expected: band.events === 0 ? null : probability / band.events,
  }));
}

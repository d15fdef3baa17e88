/**
 * The risk score's thresholds, as a merchant sees and moves them: its own per event type, what
 * is in force and where it comes from (its own, a template that is on, or none), a preview of
 * proposed thresholds over the last 30 days of its screenings, and saving (every instance then
 * reloads its policy).
 */
import { TEMPLATE_CATALOG } from "../../../shared/catalog/templates.ts";
import {
  PREVIEW_DAYS,
  type ThresholdPreview,
  type ThresholdsView,
  ZThresholdReset,
  ZThresholdsInput,
} from "../../../shared/schemas/score-thresholds.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import type { Templates } from "../../../shared/schemas/templates.ts";
import { thresholdsInForce } from "../../../shared/score/thresholds.ts";
import type { Thresholds, Weights } from "../../../shared/score/weights.ts";
import { DEFAULT_WEIGHTS } from "../../engine/default-weights.ts";
import type { ScoringRepository } from "./scoring.repository.ts";
import { tallyPreview } from "./threshold-preview.ts";
import type { ThresholdsRepository } from "./thresholds.repository.ts";

type Deps = {
  repo: ScoringRepository;
  store: ThresholdsRepository;
  templates: { get(accountId: string): Promise<Templates> };
  /** Told after a change, so every instance reloads the account's policy. */
  onChange: (accountId: string) => void;
  now: () => Date;
};

type Sources = { own: Thresholds; weights: Weights; templates: Templates };

/** The page's view: each type's thresholds in force and where they come from. */
export function thresholdsView({ own, weights, templates }: Sources): ThresholdsView {
  const inForce = thresholdsInForce(templates, own, weights.thresholds);
  return {
    own,
    weights: { version: weights.version, thresholds: weights.thresholds },
    types: SCREEN_TYPES.map((type) => {
      const judging = TEMPLATE_CATALOG.filter(
        (t) => templates[t.key] && t.scoreTypes.includes(type),
      );
      const fallback = judging.length > 0 ? (weights.thresholds[type] ?? null) : null;
      const source = own[type] ? "own" : inForce[type] ? "template" : "none";
      return {
        type,
        in_force: inForce[type] ?? null,
        source,
        templates: judging.map((t) => t.label),
        template_default: fallback,
      };
    }),
  };
}

export function createThresholdsService({ repo, store, templates, onChange, now }: Deps) {
  async function sources(accountId: string): Promise<Sources> {
    const [own, adopted, t] = await Promise.all([
      repo.thresholds(accountId),
      repo.adoptedWeights(accountId),
      templates.get(accountId),
    ]);
    return { own, weights: adopted ?? DEFAULT_WEIGHTS, templates: t };
  }

  async function get(accountId: string): Promise<ThresholdsView> {
    return thresholdsView(await sources(accountId));
  }

  return {
    get,

    /** Replaces the account's own thresholds (a type left out follows its templates again). */
    async save(accountId: string, raw: unknown): Promise<ThresholdsView> {
      const { thresholds } = ZThresholdsInput.parse(raw);
      await repo.saveThresholds(accountId, thresholds);
      onChange(accountId);
      return get(accountId);
    },

    /** Drops the account's own thresholds for one type: its templates' defaults apply again. */
    async reset(accountId: string, raw: unknown): Promise<ThresholdsView> {
      const { type } = ZThresholdReset.parse(raw);
      await store.removeOwn(accountId, type, now());
      onChange(accountId);
      return get(accountId);
    },

    /**
     * What the proposed own thresholds would have done to the last 30 days of the account's
     * screenings, against the thresholds in force now: the stored score and the rules' own
     * reasons, judged again under each (nothing is stored).
     */
    async preview(accountId: string, raw: unknown): Promise<ThresholdPreview> {
      const { thresholds } = ZThresholdsInput.parse(raw);
      const current = await sources(accountId);
      const defaults = current.weights.thresholds;
      const to = now();
      const from = new Date(to.getTime() - PREVIEW_DAYS * 86_400_000);
      const { groups, unscored } = await store.previewGroups(accountId, { from, to });
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        unscored,
        ...tallyPreview(
          groups,
          thresholdsInForce(current.templates, current.own, defaults),
          thresholdsInForce(current.templates, thresholds, defaults),
        ),
      };
    },
  };
}

export type ThresholdsService = ReturnType<typeof createThresholdsService>;

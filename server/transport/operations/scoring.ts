/**
 * The risk score: a merchant's own weights (proposed from its labels, adopted by a member,
 * rolled back) and its review and block thresholds. REST under /api/scoring for scripts and
 * the simulator, with a bearer token from POST /api/auth/login.
 */

import {
  ZAdoptConfirmation,
  ZAdoptModel,
  ZModelRef,
  ZScoreModels,
  ZScoreModelView,
} from "../../../shared/schemas/score-models.ts";
import {
  ZThresholdPreview,
  ZThresholdReset,
  ZThresholdsInput,
  ZThresholdsView,
} from "../../../shared/schemas/score-thresholds.ts";
import type { Services } from "../../services.ts";
import { audits, byId, op } from "../operation.ts";

const { snap } = audits;
const THRESHOLDS_EXAMPLE = {
  thresholds: { signup: { review: 60, block: 85 }, checkout: { review: 70, block: null } },
};

async function activeModel(services: Services, accountId: string) {
  return { in_force: (await services.scoreModels.list(accountId)).in_force };
}

export const scoreModels = {
  list: op({
    need: "read",
    kind: "query",
    output: ZScoreModels,
    handler: ({ services, caller }) => services.scoreModels.list(caller.accountId),
    rest: {
      method: "GET",
      path: "/scoring/models",
      tag: "scoring",
      summary: "The weights in force and every version fitted from your labels, newest first",
    },
  }),
  /** Fits weights on the account's labels and stores them with their backtest; adopts nothing. */
  propose: op({
    need: "configure",
    audit: "event",
    kind: "mutation",
    output: ZScoreModelView,
    handler: ({ services, caller, session }) =>
      services.scoreModels.propose(caller.accountId, session.user.email),
    rest: {
      method: "POST",
      path: "/scoring/proposals",
      tag: "scoring",
      summary:
        "Fit weights on your labelled screenings (at least 50 fraud and 50 legitimate) and store them as a proposal, with a backtest against the weights in force; nothing is adopted",
      errors: [400, 409, 429],
    },
  }),
  /** Each of the version's warnings must be in `confirm`. */
  adopt: op({
    need: "configure",
    audit: snap(activeModel),
    target: byId,
    kind: "mutation",
    input: ZAdoptModel,
    output: ZScoreModels,
    handler: ({ services, caller, session }, input) =>
      services.scoreModels.adopt(caller.accountId, input, session.user.email),
    rest: {
      method: "POST",
      path: "/scoring/models/:id/adopt",
      tag: "scoring",
      summary:
        "Put a proposed (or retired) version in force; the version in force before is retired. A version with warnings needs each one's code in `confirm` (a 400 names those missing)",
      params: ZModelRef,
      // No body at all: nothing confirmed (enough for a version without warnings).
      body: ZAdoptConfirmation.nullish(),
      errors: [404, 409],
      examples: { body: { confirm: ["one_source"] } },
    },
  }),
  rollback: op({
    need: "configure",
    audit: snap(activeModel),
    kind: "mutation",
    output: ZScoreModels,
    handler: ({ services, caller }) => services.scoreModels.rollback(caller.accountId),
    rest: {
      method: "POST",
      path: "/scoring/rollback",
      tag: "scoring",
      summary:
        "Retire the version in force and put back the one adopted before it (or the shipped defaults)",
      errors: [409],
    },
  }),
};

export const scoreThresholds = {
  /** Each event type's thresholds in force, where they come from, and the account's own. */
  get: op({
    need: "read",
    kind: "query",
    output: ZThresholdsView,
    handler: ({ services, caller }) => services.scoreThresholds.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/scoring/thresholds",
      tag: "scoring",
      summary:
        "The risk score's review and block thresholds per event type: in force, where they come from (own, a template, none), and the account's own",
    },
  }),
  /** Replaces the account's own thresholds; a type left out follows its templates. */
  put: op({
    need: "configure",
    audit: snap((s, a) => s.scoreThresholds.get(a)),
    kind: "mutation",
    input: ZThresholdsInput,
    output: ZThresholdsView,
    handler: ({ services, caller }, input) =>
      services.scoreThresholds.save(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/scoring/thresholds",
      tag: "scoring",
      summary:
        "Replace the account's own thresholds (0–100 or null, review not above block); a type left out follows its templates",
      examples: { body: THRESHOLDS_EXAMPLE },
    },
  }),
  /** Drops one type's own thresholds: its templates' defaults apply again. */
  reset: op({
    need: "configure",
    audit: snap((s, a) => s.scoreThresholds.get(a)),
    kind: "mutation",
    input: ZThresholdReset,
    output: ZThresholdsView,
    handler: ({ services, caller }, input) =>
      services.scoreThresholds.reset(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/scoring/thresholds/reset",
      tag: "scoring",
      summary: "Drop one event type's own thresholds: its templates' defaults apply again",
      examples: { body: { type: "signup" } },
    },
  }),
  /** What the proposed own thresholds would have done over the last 30 days (nothing saved). */
  preview: op({
    need: "read",
    kind: "mutation",
    input: ZThresholdsInput,
    output: ZThresholdPreview,
    handler: ({ services, caller }, input) =>
      services.scoreThresholds.preview(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/scoring/thresholds/preview",
      tag: "scoring",
      summary:
        "What proposed own thresholds would have blocked and reviewed over the last 30 days of screenings, and of the labelled ones, against today's (nothing is saved)",
      examples: { body: THRESHOLDS_EXAMPLE },
    },
  }),
};

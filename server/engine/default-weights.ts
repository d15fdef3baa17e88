/**
 * The shipped weights (default-weights.json, written by `npm run fit`; CI checks the file is
 * what the fit produces for its fixed seeds), checked against the schema once.
 */
import { type Weights, ZWeights } from "../../shared/score/weights.ts";
import file from "./default-weights.json" with { type: "json" };

export const DEFAULT_WEIGHTS: Weights = ZWeights.parse(file);

/**
 * What other modules must compute exactly as screening does (decision 032), so they import it
 * from here rather than copy it: how an event's identities are hashed under the account's key,
 * how an email folds to one inbox and an IP to the keys it is counted by, what a collect
 * request's own headers say, and the inputs and probes the backtest replays an event through.
 * Pure functions and their types only; screening's use cases are in its services.
 */

export type { StoredScreening } from "./batch-rows.ts";
export { collectRequestOf, type Headers } from "./features/collect-request.ts";
export {
  createDigestKeys,
  digest,
  IDENTITY_KINDS,
  type Identities,
  type IdentityKind,
  identitiesOf,
  keyedFromLegacy,
  legacyDigest,
} from "./features/identities.ts";
export { type IpKeys, ipKeys, normalizeEmail } from "./features/identity.ts";
export { countsOf, linksFrom, type Probe, probesFor } from "./probes.ts";
export { type ScreeningInputs, screeningInputs } from "./screening-inputs.ts";

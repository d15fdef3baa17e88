/** What the review queue's parts are handed, and what a settled item reports. */
import type { ReviewKind } from "../../../shared/schemas/review.ts";
import type { LabelsService } from "../labels/labels.service.ts";
import type { LinksService } from "../links/links.service.ts";
import type { DecisionEvent } from "../webhooks/webhooks.types.ts";
import type { ChargeReviewRepository } from "./charge-review.repository.ts";
import type { ReviewRepository } from "./review.repository.ts";

export type Settled = {
  kind: ReviewKind;
  id: string;
  status: "approved" | "denied";
  userId: string | null;
  email: string | null;
};

export type ReviewDeps = {
  repo: ReviewRepository;
  charges: ChargeReviewRepository;
  labels: LabelsService;
  /** A screening's linked accounts, for its detail (decision 023). */
  links: LinksService;
  now: () => Date;
  /** The account's key for identity digests (screening/features/identities.ts). */
  digestKeyOf: (accountId: string) => string;
  /** The decision event that reports a settled item, stored in the settle's transaction. */
  eventOf?: (settled: Settled, by: string) => DecisionEvent;
  /** Told after settled items and their events are committed (the webhooks worker sends them). */
  eventsStored?: () => void;
  /** Told after any settle commits, with its account (the console's live pages). */
  settledIn?: (accountId: string) => void;
  /** Told of each item settled one at a time, after it is stored ("always allow this user"). */
  onSettled?: (
    accountId: string,
    settled: Settled,
    input: { alwaysAllow: boolean; by: string },
  ) => Promise<void>;
};

/**
 * Linked accounts (decision 023): what the links module is handed and answers. A screening's
 * link identities are hashed by its caller (review/shared-identities.ts) exactly as the
 * screening's counting rows hold them.
 */
import type { LinkKind } from "../../../shared/schemas/screening.ts";
import type { Prisma } from "../../db/generated/client.ts";

/** One identity to look up: its kind and one digest of it (keyed, or unkeyed for old rows). */
export type LinkProbe = { kind: LinkKind; value: string };

/** Whom to read the links of: one stored screening, by its identities and its own account. */
export type LinkQuery = {
  screeningId: string;
  /** The screening's time: the window is the 30 days before it. */
  at: Date;
  probes: readonly LinkProbe[];
  /** Its own account's keyed digest (user id, else normalized email); never linked to itself. */
  self: string | null;
  /** The account's digest key: an unkeyed row's account is compared in its keyed form. */
  key: string;
};

/**
 * Keeps ScreeningIdentity.flagged in step with a screening's verdict, inside the transaction
 * that stores the verdict (a review's deny, a label): set when it is denied or labelled fraud,
 * cleared when it is labelled legitimate.
 */
export type FlagMarks = {
  mark(
    tx: Prisma.TransactionClient,
    accountId: string,
    screeningIds: readonly string[],
    flagged: boolean,
  ): Promise<void>;
};

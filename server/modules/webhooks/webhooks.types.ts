/**
 * The transactional outbox of decision events, as other modules see it. A module whose write
 * an event reports (a review settled, a label added) stages the event's deliveries on its own
 * transaction's client, so the write and its event commit together or not at all: a crash
 * between them can lose neither. The webhooks worker sends them after the commit (kick).
 */
import type { WebhookEventType } from "../../../shared/schemas/webhooks.ts";
import type { Prisma } from "../../db/generated/client.ts";

/** One event for the merchant's endpoints: its type and its `data`. */
export type DecisionEvent = { type: WebhookEventType; data: unknown };

/** A database client, or the client of an open transaction. */
export type OutboxDb = Prisma.TransactionClient;

export type EventOutbox = {
  /** Stores a delivery of each event for every endpoint of the account that wants it, on `db`. */
  stage(db: OutboxDb, accountId: string, events: readonly DecisionEvent[]): Promise<void>;
  /** Tells the worker that deliveries were committed, so it sends them now. */
  kick(): void;
};

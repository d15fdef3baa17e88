/** Decision webhooks: endpoints a merchant registers in Settings, and their delivery log. */
import { z } from "zod";
import { storableString, uuidString } from "./storable.ts";

export const WEBHOOK_EVENTS = [
  "screening.blocked",
  "screening.review",
  "review.approved",
  "review.denied",
  "charge.refunded_by_rule",
  "label.created",
  /** An end user's data was erased (POST /api/v1/end-users/erase or the console): ids and counts only. */
  "end_user.erased",
  /** An alert the merchant set fired, or its series came back (shared/schemas/alerts.ts). */
  "alert.fired",
  "alert.resolved",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const ZWebhookEndpointInput = z.strictObject({
  url: storableString()
    .trim()
    .min(1, "must not be empty")
    .max(2048, "must be at most 2048 characters")
    .refine((value) => URL.canParse(value), { message: "must be an absolute URL" }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { message: `must be among ${WEBHOOK_EVENTS.join(", ")}` }))
    .min(1, "must name at least one event")
    .transform((events) => [...new Set(events)]),
});
export type WebhookEndpointInput = z.input<typeof ZWebhookEndpointInput>;

/** Which endpoint to remove, or which delivery to re-send. */
export const ZWebhookRef = z.strictObject({ id: uuidString() });

export const ZWebhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  created_at: z.string(),
  /** Since when every delivery has failed (null: the last one succeeded). */
  failing_since: z.string().nullable(),
  /** Disabled after failing for days: no new deliveries until re-enabled. */
  disabled_at: z.string().nullable(),
  /** The last failure when it was disabled. */
  disabled_reason: z.string().nullable(),
});
export type WebhookEndpointView = z.infer<typeof ZWebhookEndpointView>;

/** How many endpoints an account may have (WEBHOOK_ENDPOINTS_PER_ACCOUNT). */
export const ZWebhookEndpointLimit = z.object({ max: z.number().int() });

/** The answer to a create: the only time the signing secret is shown. */
export const ZWebhookEndpointCreated = ZWebhookEndpointView.extend({ secret: z.string() });

export const ZAttempt = z.object({
  at: z.string(),
  /** The receiver's HTTP status, or null when no answer came. */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  ms: z.number(),
});

export const ZWebhookDeliveryView = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  url: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(ZAttempt),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof ZWebhookDeliveryView>;

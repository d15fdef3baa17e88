/** Decision webhooks: endpoints a merchant registers in Settings, and their delivery log. */
import { z } from "zod";

export const WEBHOOK_EVENTS = [
  "screening.blocked",
  "screening.review",
  "review.approved",
  "review.denied",
  "charge.refunded_by_rule",
  "label.created",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const ZWebhookEndpointInput = z.strictObject({
  url: z
    .string({ message: "must be a string" })
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

export const ZWebhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  created_at: z.string(),
});
export type WebhookEndpointView = z.infer<typeof ZWebhookEndpointView>;

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

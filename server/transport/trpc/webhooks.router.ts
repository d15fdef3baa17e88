import { z } from "zod";
import {
  ZWebhookDeliveryView,
  ZWebhookEndpointCreated,
  ZWebhookEndpointInput,
  ZWebhookEndpointLimit,
  ZWebhookEndpointView,
  ZWebhookRef,
} from "../../../shared/schemas/webhooks.ts";
import { protectedProcedure, router } from "./init.ts";

/** Settings → Decision webhooks: endpoints, the delivery log, and re-send. */
export const webhooksRouter = router({
  endpoints: protectedProcedure
    .output(z.array(ZWebhookEndpointView))
    .query(({ ctx }) => ctx.services.webhooks.listEndpoints(ctx.user.accountId)),

  createEndpoint: protectedProcedure
    .input(ZWebhookEndpointInput)
    .output(ZWebhookEndpointCreated)
    .mutation(({ ctx, input }) => ctx.services.webhooks.createEndpoint(ctx.user.accountId, input)),

  endpointLimit: protectedProcedure
    .output(ZWebhookEndpointLimit)
    .query(({ ctx }) => ctx.services.webhooks.endpointLimit()),

  enableEndpoint: protectedProcedure
    .input(ZWebhookRef)
    .mutation(({ ctx, input }) =>
      ctx.services.webhooks.enableEndpoint(ctx.user.accountId, input.id),
    ),

  removeEndpoint: protectedProcedure
    .input(ZWebhookRef)
    .mutation(({ ctx, input }) =>
      ctx.services.webhooks.removeEndpoint(ctx.user.accountId, input.id),
    ),

  deliveries: protectedProcedure
    .output(z.array(ZWebhookDeliveryView))
    .query(({ ctx }) => ctx.services.webhooks.deliveries(ctx.user.accountId)),

  resend: protectedProcedure
    .input(ZWebhookRef)
    .mutation(({ ctx, input }) => ctx.services.webhooks.resend(ctx.user.accountId, input.id)),
});

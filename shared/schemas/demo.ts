/**
 * "Load demo data" and "Remove demo data": what loading will do before it is done (the
 * console's confirm step), what the account holds of it now, and what removing it did.
 */
import { z } from "zod";

/** A rule or country the demo turns on or blocks, with the label the console shows. */
const ZNamed = z.object({ key: z.string(), label: z.string() });

export const ZDemoPreview = z.object({
  /** Whether this install may load it (local installs only). */
  canLoad: z.boolean(),
  /** What loading adds: sample charges (of which some failed), Stripe's fraud labels. */
  adds: z.object({
    charges: z.number(),
    failedCharges: z.number(),
    fraudLabels: z.number(),
    screenings: z.number(),
    days: z.number(),
  }),
  /** The Standard rules it turns on (empty when one of them is on already: it turns none on). */
  turnsOn: z.array(ZNamed),
  /** The countries it adds to the block list (none it blocks already). */
  blocks: z.array(ZNamed),
  /** Whether it saves a demo Stripe signing secret (the account has none yet). */
  setsSigningSecret: z.boolean(),
  /** Demo charges the account holds now (0: nothing to remove). */
  loadedCharges: z.number(),
});
export type DemoPreview = z.infer<typeof ZDemoPreview>;

export const ZDemoLoaded = z.object({ sent: z.number(), rulesTurnedOn: z.boolean() });

export const ZDemoRemoved = z.object({
  /** The rows deleted, by kind (reviews are the deleted charges that had one). */
  removed: z.object({
    charges: z.number(),
    reviews: z.number(),
    labels: z.number(),
    stripeEvents: z.number(),
    actions: z.number(),
  }),
  /** Settings put back as they were before the demo. */
  restored: z.object({ rules: z.array(ZNamed), countries: z.array(ZNamed) }),
  /** What the demo changed that stays, because the merchant changed those settings since. */
  left: z.object({ rules: z.array(ZNamed), countries: z.array(ZNamed) }),
});
export type DemoRemoved = z.infer<typeof ZDemoRemoved>;

/** Waitlist input and answer, validated on the server with the rule the browser runs too. */
import { z } from "zod";
import { MESSAGES } from "../messages.ts";
import { checkWaitlistEmail, normalizeWaitlistEmail } from "./waitlist-email.ts";

export * from "./waitlist-email.ts";

export const ZWaitlistEmail = z
  .string({ message: MESSAGES.waitlistInvalidEmail })
  .transform(normalizeWaitlistEmail)
  .refine((email) => checkWaitlistEmail(email).ok, { message: MESSAGES.waitlistInvalidEmail });

export const ZWaitlistJoin = z.strictObject({ email: ZWaitlistEmail });

/** "already_listed" is an ordinary answer, not an error: the visitor is on the list either way. */
export const ZWaitlistJoinResult = z.object({ status: z.enum(["joined", "already_listed"]) });

export type WaitlistJoin = z.infer<typeof ZWaitlistJoin>;
export type WaitlistJoinResult = z.infer<typeof ZWaitlistJoinResult>;

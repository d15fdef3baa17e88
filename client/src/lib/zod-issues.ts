import type { z } from "zod";

/** A failed parse's messages by field path ("rule_ip.window_days"), as a form shows them. */
export function issuesByPath(error: z.ZodError): Record<string, string> {
  return Object.fromEntries(error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

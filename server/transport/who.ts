/** How a settlement or label names who made it, from the caller (tRPC and REST alike). */
import type { Caller } from "../lib/caller.ts";

export function apiKeyLabeller(caller: Caller) {
  const id = caller.key?.id ?? "";
  return { source: "api" as const, who: `API key ${id.slice(0, 8)}`.trim(), whoId: id };
}

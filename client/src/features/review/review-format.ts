/** How the Review page words an item; pure, so tested as a table. */
import type { ReviewItem, SharedKind } from "../../../../shared/schemas/review.ts";

const KIND_NAMES: Record<SharedKind, string> = {
  device: "device",
  card: "card",
  email: "email",
  ip: "IP",
};

/** "3 earlier events from this device, 1 labelled fraud". */
export function sharedSentence(shared: ReviewItem["shared"][number]): string {
  const events = `${shared.events} earlier ${shared.events === 1 ? "event" : "events"}`;
  const fraud = shared.fraud > 0 ? `, ${shared.fraud} labelled fraud` : "";
  return `${events} from this ${KIND_NAMES[shared.kind]}${fraud}`;
}

/** How long an item has waited: "12 min", "3 h", "2 d". */
export function formatAge(createdAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** The sidebar's count: "12", or "9999+" past the cap. */
export function formatOpenCount(count: { open: number; capped: boolean }): string {
  return count.capped ? `${count.open}+` : String(count.open);
}

/** The index j / k move to, kept inside the list. */
export function step(index: number, by: 1 | -1, length: number): number {
  if (length === 0) return 0;
  return Math.min(length - 1, Math.max(0, index + by));
}

/** Whether a key press belongs to a form field rather than to the queue's shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  const tag = (target as { tagName?: string } | null)?.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

/** A card's title: the screening's type ("trial start"), or the charge and its amount. */
export function itemTitle(item: Pick<ReviewItem, "type" | "charge">): string {
  if (item.charge) {
    return `charge ${item.charge.amount.toFixed(2)} ${item.charge.currency.toUpperCase()}`;
  }
  return (item.type ?? "event").replaceAll("_", " ");
}

/** Whom an item is about: "user u_123", else the email, else "an unknown user". */
function whose(item: Pick<ReviewItem, "user_id" | "email">): string {
  if (item.user_id) return `user ${item.user_id}`;
  return item.email ?? "an unknown user";
}

/** What a settle did, as the status line says it: "Denied trial start from user u_123". */
export function settledSentence(
  item: Pick<ReviewItem, "type" | "charge" | "user_id" | "email">,
  decision: "approve" | "deny",
): string {
  return `${decision === "approve" ? "Approved" : "Denied"} ${itemTitle(item)} from ${whose(item)}`;
}

/** After Undo: "Undone: trial start from user u_123 is back in the queue". */
export function undoneSentence(
  item: Pick<ReviewItem, "type" | "charge" | "user_id" | "email">,
): string {
  return `Undone: ${itemTitle(item)} from ${whose(item)} is back in the queue`;
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What a bulk label did: "Labelled 12 screenings fraud (1 not found)." */
export function bulkLabelSentence(labelled: number, label: string, notFound: number): string {
  const missing = notFound > 0 ? ` (${plural(notFound, "was", "were")} not found)` : "";
  if (labelled === 0) return `Nothing labelled${missing}.`;
  return `Labelled ${plural(labelled, "item", "items")} ${label}${missing}.`;
}

/** After a bulk label's Undo: "Undone: 12 labels removed; the earlier ones stand again." */
export function bulkUndoneSentence(removed: number): string {
  return `Undone: ${plural(removed, "label", "labels")} removed; any earlier label stands again.`;
}

/** What a settle that never reached the server says: the item is back, nothing was saved. */
export function notSentSentence(
  item: Pick<ReviewItem, "type" | "charge" | "user_id" | "email">,
  decision: "approve" | "deny",
  why: string,
): string {
  const verb = decision === "approve" ? "approval" : "denial";
  return `Not saved: the ${verb} of ${itemTitle(item)} from ${whose(item)} did not reach Warden (${why}). It is back in the queue; settle it again.`;
}

/** What Approve all / Deny all did, with the server's count: "Denied 50 items." */
export function bulkSettledSentence(decision: "approve" | "deny", settled: number): string {
  return `${decision === "approve" ? "Approved" : "Denied"} ${plural(settled, "item", "items")}`;
}

/**
 * What the Data requests page computes from a form and from the server's answers: the selector
 * it sends (validated with the server's own schema), the rows of counts by source, the export's
 * file name, and the word that confirms an erasure.
 */
import {
  END_USER_SELECTORS,
  type EndUserCounts,
  type EndUserSelector,
  type EndUserSelectorKind,
  EXPORT_SOURCES,
  type ExportSource,
  ZEndUserSelector,
} from "../../../../shared/schemas/end-users.ts";

export type SelectorForm = Record<EndUserSelectorKind, string>;

export const EMPTY_FORM: SelectorForm = {
  email: "",
  user_id: "",
  device_id: "",
  ip: "",
  card_fingerprint: "",
};

export const SELECTOR_LABELS: Record<EndUserSelectorKind, string> = {
  email: "Email",
  user_id: "User id",
  device_id: "Device id",
  ip: "IP address",
  card_fingerprint: "Card fingerprint",
};

const SELECTOR_NOUNS: Record<EndUserSelectorKind, string> = {
  email: "email",
  user_id: "user id",
  device_id: "device id",
  ip: "IP address",
  card_fingerprint: "card fingerprint",
};

/** The typed word that confirms an erasure. */
export const CONFIRM_WORD = "ERASE";

export type Checked =
  | { ok: true; selector: EndUserSelector }
  | { ok: false; errors: Record<string, string> };

/** The form's filled-in fields as a selector, or each field's message (the server's words). */
export function checkSelector(form: SelectorForm): Checked {
  const given = Object.fromEntries(
    END_USER_SELECTORS.filter((key) => form[key].trim() !== "").map((key) => [key, form[key]]),
  );
  const parsed = ZEndUserSelector.safeParse(given);
  if (parsed.success) return { ok: true, selector: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".") || "email";
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

/** "email ana@example.com, IP address 203.0.113.7": whom the answers on screen are about. */
export function describeSelector(selector: EndUserSelector): string {
  return END_USER_SELECTORS.filter((key) => selector[key] !== undefined)
    .map((key) => `${SELECTOR_NOUNS[key]} ${selector[key]}`)
    .join(", ");
}

export type CountRow = { source: ExportSource; label: string; count: number };

/** One row per source, in EXPORT_SOURCES' order, with its sentence. */
export function countRows(counts: EndUserCounts): CountRow[] {
  return (Object.keys(EXPORT_SOURCES) as ExportSource[]).map((source) => ({
    source,
    label: EXPORT_SOURCES[source],
    count: counts[source],
  }));
}

/** How many stored rows hold the person, all sources together but those `kept`. */
export function totalHeld(counts: EndUserCounts, kept: readonly ExportSource[] = []): number {
  return countRows(counts)
    .filter((row) => !kept.includes(row.source))
    .reduce((sum, row) => sum + row.count, 0);
}

/**
 * The export's file name: the time it was made (UTC, to the second), never the person's email
 * or any other value asked about, so a downloads folder does not list whom it is about.
 */
export function exportFileName(exportedAt: string): string {
  const time = new Date(exportedAt);
  const stamp = Number.isNaN(time.getTime())
    ? "export"
    : time.toISOString().slice(0, 19).replace("T", "-").replace(/:/g, "");
  return `warden-end-user-export-${stamp}.json`;
}

/** Whether what was typed confirms the erasure. */
export function confirmsErasure(typed: string): boolean {
  return typed.trim() === CONFIRM_WORD;
}

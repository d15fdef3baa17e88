/** The operator's waitlist export: every entry as CSV (RFC 4180, safe to open in a spreadsheet). */
import type { WaitlistRepository, WaitlistRow } from "./waitlist.repository.ts";

export const WAITLIST_CSV_HEADER = "email,created\r\n";
const PAGE = 1000;

/**
 * Quotes a field when it holds a comma, quote or line break. Emails come from anonymous
 * visitors, so a field a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe (OWASP's CSV-injection advice).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line ending in CRLF: the email and its creation time in UTC ISO 8601. */
export function waitlistCsvLine(row: Pick<WaitlistRow, "email" | "createdAt">): string {
  return `${csvField(row.email)},${csvField(row.createdAt.toISOString())}\r\n`;
}

/** Writes the header and every entry in insertion order, a page at a time; returns the count. */
export async function writeWaitlistCsv(
  repo: Pick<WaitlistRepository, "page">,
  write: (chunk: string) => Promise<void>,
): Promise<number> {
  await write(WAITLIST_CSV_HEADER);
  let count = 0;
  let afterId = 0;
  for (;;) {
    const rows = await repo.page(afterId, PAGE);
    if (rows.length > 0) await write(rows.map(waitlistCsvLine).join(""));
    count += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return count;
    afterId = last.id;
  }
}

/**
 * The audit log as CSV (RFC 4180), one line per event. A cell is text a member or a backend
 * chose (an email, a label's subject id, a rule's note): opened in a spreadsheet, one starting
 * with = + - @ (or a tab or carriage return) would run as a formula, so it gets a leading
 * apostrophe and is read as text (OWASP's "CSV injection"). Pure.
 */
import { AUDIT_CSV_COLUMNS, type AuditEvent } from "../../../shared/schemas/audit.ts";

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell: defused against formulas, quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? "";
  const defused = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}

/** One line, ending CRLF. */
export function csvLine(cells: readonly (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export const CSV_HEADER = csvLine(AUDIT_CSV_COLUMNS);

const jsonText = (value: unknown) =>
  value === undefined || value === null ? "" : JSON.stringify(value);

/**
 * One event's line: before and after as JSON (empty when there is none), then the target's
 * label (appended last, so scripts reading the first eight columns by position still work).
 */
export function csvRow(event: AuditEvent): string {
  return csvLine([
    event.at,
    event.actor_kind,
    event.actor,
    event.ip,
    event.action,
    event.target,
    jsonText(event.before),
    jsonText(event.after),
    event.target_label,
  ]);
}

/**
 * The dashboard's page cursor: the (created, chargeId) of the last row shown, so the next page
 * starts strictly after it (keyset pagination; no OFFSET, so deep pages cost what the first does).
 * Opaque to clients: base64url of "created:chargeId".
 */
import { AppError } from "../../lib/app-error.ts";

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

export type CursorKey = { created: number; chargeId: string };

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.created}:${key.chargeId}`, "utf8").toString("base64url");
}

/** The key inside a cursor; a cursor that was not made by encodeCursor is a 400 naming `cursor`. */
export function decodeCursor(cursor: string): CursorKey {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(-?\d{1,12}):(.{1,255})$/s.exec(text);
  // `created` is a 32-bit column: a time outside it would fail in the database, not here.
  const created = Number(match?.[1]);
  if (!match?.[1] || !match[2] || created < INT32_MIN || created > INT32_MAX) {
    const message = "cursor is not one this server handed out.";
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "cursor", message }] });
  }
  return { created, chargeId: match[2] };
}

import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/app-error.ts";
import { decodeCursor, encodeCursor } from "./transaction-cursor.ts";

describe("dashboard cursor", () => {
  it.each([
    { created: 1_700_000_000, chargeId: "ch_3PabcDEF" },
    { created: 0, chargeId: "ch_0" },
    { created: 2_147_483_647, chargeId: "ch_last_second_of_int32" },
    { created: 1_700_000_000, chargeId: "ch_with:colon:inside" },
    { created: 1_700_000_000, chargeId: "ch_ünïcødé" },
  ])("round-trips $created / $chargeId", (key) => {
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(key);
  });

  it.each([
    ["empty", ""],
    ["not base64 of a key", "bm90LWEta2V5"],
    ["missing charge id", Buffer.from("1700000000:").toString("base64url")],
    ["non-numeric created", Buffer.from("abc:ch_1").toString("base64url")],
    ["garbage", "%%%"],
    ["12 digits of time", Buffer.from("999999999999:ch_1").toString("base64url")],
    ["a time past 2038", Buffer.from("2147483648:ch_1").toString("base64url")],
    ["a time before 1902", Buffer.from("-2147483649:ch_1").toString("base64url")],
  ])("rejects a cursor that is %s with a 400 naming cursor", (_case, cursor) => {
    try {
      decodeCursor(cursor);
      expect.unreachable("decodeCursor accepted a bad cursor");
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BAD_REQUEST");
      expect((error as AppError).details.issues?.[0]?.path).toBe("cursor");
    }
  });
});

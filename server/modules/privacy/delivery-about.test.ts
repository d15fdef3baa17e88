import { describe, expect, it } from "vitest";
import { deliveryIsAbout } from "./delivery-about.ts";
import { NO_VALUES } from "./scrub.ts";

const found = { screenings: ["scr_1"], charges: ["ch_1"] };
const v = { ...NO_VALUES, userIds: ["u_1"], emails: ["Ana@Example.com"] };
const body = (data: unknown) => JSON.stringify({ id: "evt_1", type: "x", created: 1, data });

describe("deliveryIsAbout", () => {
  it.each([
    [{ screening: { id: "scr_1", user_id: null } }, true],
    [{ screening: { id: "scr_2", user_id: "u_1" } }, true],
    [{ screening: { id: "scr_2", user_id: "u_10" } }, false],
    [{ review: { kind: "screening", screening_id: "scr_1" } }, true],
    [{ review: { kind: "charge", charge_id: "ch_1" } }, true],
    [{ review: { kind: "charge", charge_id: "ch_2", email: "ana@example.com" } }, true],
    [{ review: { kind: "charge", charge_id: "ch_2", email: "anna@example.com" } }, false],
    [{ label: { subject_id: "ch_1" } }, true],
    [{ label: { subject_id: "scr_9", note: "u_1 said so" } }, false],
    [{ charge: { id: "ch_1", reason: "rule" } }, true],
    // The id only as some other field's value: not about them.
    [{ screening: { id: "scr_3", reasons: [{ observed: "scr_1" }] } }, false],
  ])("%j → %s", (data, about) => {
    expect(deliveryIsAbout(body(data), v, found)).toBe(about);
  });

  it("is false for a body that is not JSON", () => {
    expect(deliveryIsAbout('{"data": {"screening": {"id": "scr_1"', v, found)).toBe(false);
  });
});

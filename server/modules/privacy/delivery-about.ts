/**
 * Whether a webhook delivery is about an end user: the JavaScript half of deliveryCandidates
 * (person-rows.repository.ts), which finds the candidates with a LIKE and parses no body. Pure.
 */
import type { PersonValues } from "./scrub.ts";

/** Whether a delivery's event is about the person's rows, or names their user id or email. */
export function deliveryIsAbout(
  body: string,
  v: PersonValues,
  /** The person's screenings' and charges' ids. */
  found: { screenings: readonly string[]; charges: readonly string[] },
): boolean {
  let event: { data?: Record<string, Record<string, unknown> | undefined> };
  try {
    event = JSON.parse(body);
  } catch {
    return false;
  }
  const data = event.data ?? {};
  const screenings = new Set(found.screenings);
  const charges = new Set(found.charges);
  const users = new Set(v.userIds);
  const emails = new Set(v.emails.map((email) => email.toLowerCase()));
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const is = (set: Set<string>, value: unknown) => {
    const t = text(value);
    return t !== null && set.has(t);
  };
  const { screening, review, label, charge } = data;
  return (
    is(screenings, screening?.id) ||
    is(users, screening?.user_id) ||
    is(screenings, review?.screening_id) ||
    is(charges, review?.charge_id) ||
    is(users, review?.user_id) ||
    emails.has(text(review?.email)?.toLowerCase() ?? "") ||
    is(screenings, label?.subject_id) ||
    is(charges, label?.subject_id) ||
    is(charges, charge?.id)
  );
}

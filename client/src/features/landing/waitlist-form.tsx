/**
 * The waitlist form and its states (spec §4): idle, submitting, success (form hidden),
 * already listed, error. The email rule runs here first and again on the server. Plain React
 * state and fetch: this form ships in the landing bundle, which has no react-query.
 *
 * The form is prerendered (landing-prerender.tsx): its button stays disabled until the page
 * has hydrated, so a click cannot submit the bare HTML form, and the input is uncontrolled so
 * whatever was typed before hydration is kept and sent.
 */
import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import { checkWaitlistEmail } from "../../../../shared/schemas/waitlist-email.ts";
import { type JoinStatus, joinWaitlist, WaitlistError } from "./landing-api.ts";

type Join =
  | { state: "idle" }
  | { state: "submitting" }
  | { state: "done"; status: JoinStatus }
  | { state: "failed"; message: string };

const noSubscription = () => () => {};

/** False in the prerendered HTML and while hydrating it, true once the page is live. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function WaitlistForm() {
  const hydrated = useHydrated();
  const [invalid, setInvalid] = useState<string | null>(null);
  const [join, setJoin] = useState<Join>({ state: "idle" });
  const statusRef = useRef<HTMLParagraphElement>(null);

  const submitting = join.state === "submitting";
  const joined = join.state === "done" && join.status === "joined";
  const error = invalid ?? (join.state === "failed" ? join.message : null);
  const status = joined
    ? MESSAGES.waitlistJoined
    : join.state === "done" && join.status === "already_listed"
      ? MESSAGES.waitlistAlreadyListed
      : null;

  // The button that had focus disappears with the form; keep the keyboard user in place.
  useEffect(() => {
    if (joined) statusRef.current?.focus();
  }, [joined]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const email = new FormData(event.currentTarget).get("email");
    const checked = checkWaitlistEmail(typeof email === "string" ? email : "");
    if (!checked.ok) {
      setJoin({ state: "idle" });
      setInvalid(checked.message);
      return;
    }
    setInvalid(null);
    setJoin({ state: "submitting" });
    try {
      setJoin({ state: "done", status: await joinWaitlist(checked.email) });
    } catch (failure) {
      const message = failure instanceof WaitlistError ? failure.message : MESSAGES.waitlistFailed;
      setJoin({ state: "failed", message });
    }
  }

  return (
    <div className="waitlist">
      {!joined && (
        <form
          className="waitlist-form"
          onSubmit={submit}
          noValidate
          aria-label="Join the waitlist"
          aria-busy={submitting}
        >
          <label htmlFor="waitlist-email" className="visually-hidden">
            Email address
          </label>
          <div className="waitlist-row">
            <input
              id="waitlist-email"
              type="email"
              name="email"
              inputMode="email"
              autoComplete="email"
              placeholder={MESSAGES.waitlistPlaceholder}
              required
              disabled={submitting}
              aria-invalid={error ? true : undefined}
              aria-describedby="waitlist-error waitlist-note"
              onChange={() => {
                setInvalid(null);
                if (!submitting) setJoin({ state: "idle" });
              }}
            />
            <button type="submit" disabled={submitting || !hydrated}>
              {submitting ? MESSAGES.waitlistSubmitting : "Join the waitlist"}
            </button>
          </div>
          <p id="waitlist-note" className="waitlist-note">
            {MESSAGES.waitlistNote}
          </p>
        </form>
      )}
      {/* Both regions stay mounted so screen readers announce a message when it appears. */}
      <p id="waitlist-error" className="waitlist-message error" role="alert">
        {error}
      </p>
      <p
        ref={statusRef}
        className={`waitlist-message ${joined ? "success" : "info"}`}
        role="status"
        tabIndex={-1}
      >
        {status}
      </p>
    </div>
  );
}

/**
 * The waitlist form and its states (spec §4): idle, submitting, success (form hidden),
 * already listed, error. The email rule runs here first and again on the server.
 */
import { useMutation } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { MESSAGES } from "../../../../shared/messages.ts";
import { checkWaitlistEmail } from "../../../../shared/schemas/waitlist-email.ts";
import { fieldErrors, useTRPC } from "../../lib/trpc.ts";

/** What to tell the visitor when the call failed: the rate limit and the rule speak for themselves. */
function failureMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: string } | undefined)?.code;
    if (code === "TOO_MANY_REQUESTS") return error.message;
    if (code === "BAD_REQUEST") return fieldErrors(error).email ?? MESSAGES.waitlistInvalidEmail;
  }
  return MESSAGES.waitlistFailed;
}

export function WaitlistForm() {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const join = useMutation(trpc.waitlist.join.mutationOptions());
  const statusRef = useRef<HTMLParagraphElement>(null);

  const submitting = join.isPending;
  const joined = join.data?.status === "joined";
  const error = invalid ?? (join.isError ? failureMessage(join.error) : null);
  const status = joined
    ? MESSAGES.waitlistJoined
    : join.data?.status === "already_listed"
      ? MESSAGES.waitlistAlreadyListed
      : null;

  // The button that had focus disappears with the form; keep the keyboard user in place.
  useEffect(() => {
    if (joined) statusRef.current?.focus();
  }, [joined]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkWaitlistEmail(email);
    join.reset();
    if (!checked.ok) {
      setInvalid(checked.message);
      return;
    }
    setInvalid(null);
    join.mutate({ email: checked.email });
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
              value={email}
              disabled={submitting}
              aria-invalid={error ? true : undefined}
              aria-describedby="waitlist-error waitlist-note"
              onChange={(event) => {
                setEmail(event.target.value);
                setInvalid(null);
                if (!join.isPending) join.reset();
              }}
            />
            <button type="submit" disabled={submitting}>
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

/**
 * The landing page's two calls, made with fetch against the tRPC endpoints: tRPC's client,
 * react-query and zod stay out of the landing bundle (issue 9, item 5).
 */
import { MESSAGES } from "../../../../shared/messages.ts";

export type JoinStatus = "joined" | "already_listed";

/** A failed join, carrying the message to show (spec §8). */
export class WaitlistError extends Error {}

type TrpcError = {
  message?: string;
  data?: { code?: string; issues?: { path: string; message: string }[] };
};
type TrpcAnswer<T> = { result?: { data?: T }; error?: TrpcError };

/** POST /trpc/waitlist.join: the status, or a WaitlistError with the spec's wording. */
export async function joinWaitlist(email: string): Promise<JoinStatus> {
  let answer: TrpcAnswer<{ status?: string }> | null = null;
  try {
    const response = await fetch("/trpc/waitlist.join", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    answer = await response.json();
  } catch {
    throw new WaitlistError(MESSAGES.waitlistFailed);
  }
  const status = answer?.result?.data?.status;
  if (status === "joined" || status === "already_listed") return status;
  throw new WaitlistError(failureMessage(answer?.error));
}

/** The rate limit and the email rule speak for themselves; anything else is the generic failure. */
function failureMessage(error: TrpcError | undefined): string {
  const code = error?.data?.code;
  if (code === "TOO_MANY_REQUESTS" && error?.message) return error.message;
  if (code === "BAD_REQUEST") {
    return (
      error?.data?.issues?.find((issue) => issue.path === "email")?.message ??
      MESSAGES.waitlistInvalidEmail
    );
  }
  return MESSAGES.waitlistFailed;
}

export type Visitor = { signedIn: boolean; socialUrl: string | null };

/** Who is looking (auth.me) and where the project posts news (waitlist.links), in one batch. */
export async function readVisitor(): Promise<Visitor> {
  try {
    const response = await fetch(
      `/trpc/auth.me,waitlist.links?batch=1&input=${encodeURIComponent("{}")}`,
    );
    const [me, links] = (await response.json()) as [
      TrpcAnswer<unknown>?,
      TrpcAnswer<{ socialUrl?: string }>?,
    ];
    const socialUrl = links?.result?.data?.socialUrl;
    return {
      signedIn: Boolean(me?.result?.data),
      socialUrl: typeof socialUrl === "string" && socialUrl ? socialUrl : null,
    };
  } catch {
    return { signedIn: false, socialUrl: null };
  }
}

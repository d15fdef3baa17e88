import type { ReactNode } from "react";
import { MESSAGES } from "../../../shared/messages.ts";
import { useSession } from "../lib/session.ts";

/** Renders children only with a signed-in user; otherwise the spec's 'Please log in.' */
export function SignedIn({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <p className="loading">Loading...</p>;
  if (!user) return <p>{MESSAGES.signInRequired}</p>;
  return <>{children}</>;
}

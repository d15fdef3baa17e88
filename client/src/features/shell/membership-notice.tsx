/**
 * A notice at the top of the console when someone else changed the person's place in a team
 * since this browser last looked: removed from an account, or given another role (made its
 * owner). The email says the same; this is for whoever is signed in when it happens. What
 * was seen is kept per person in localStorage; a notice stays until dismissed.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "../../lib/trpc.ts";
import { type MembershipChange, membershipChanges, readMemberships } from "./membership-changes.ts";
import "./membership-notice.css";

const storageKey = (userId: string) => `warden.memberships.${userId}`;

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function MembershipNotice({ userId }: { userId: string }) {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.auth.accounts.queryOptions());
  const [changes, setChanges] = useState<MembershipChange[]>([]);

  useEffect(() => {
    if (!accounts.data) return;
    const now = accounts.data.map(({ account_id, name, role }) => ({ account_id, name, role }));
    const key = storageKey(userId);
    const found = membershipChanges(readMemberships(stored(key)), now);
    if (found.length > 0) {
      setChanges((shown) => [
        ...shown,
        ...found.filter((c) => !shown.some((s) => s.key === c.key)),
      ]);
    }
    try {
      localStorage.setItem(key, JSON.stringify(now));
    } catch {
      // Private browsing without storage: no notices, nothing else lost.
    }
  }, [accounts.data, userId]);

  if (changes.length === 0) return null;
  return (
    <div className="membership-notice" role="status">
      <ul>
        {changes.map((change) => (
          <li key={change.key}>{change.text}</li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => setChanges([])}>
        Dismiss
      </button>
    </div>
  );
}

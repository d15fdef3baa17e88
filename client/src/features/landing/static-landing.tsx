/**
 * The landing page as served at /: prerendered at build with no social link, then hydrated;
 * the link appears once waitlist.links answers. Renders the same tree on server and client.
 */
import { useEffect, useState } from "react";
import type { Visitor } from "./landing-api.ts";
import { LandingView } from "./landing-view.tsx";

export function StaticLanding({ visitor }: { visitor?: Promise<Visitor> }) {
  const [socialUrl, setSocialUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void visitor?.then((known) => {
      if (live) setSocialUrl(known.socialUrl);
    });
    return () => {
      live = false;
    };
  }, [visitor]);
  return <LandingView socialUrl={socialUrl} />;
}

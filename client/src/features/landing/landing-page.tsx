/**
 * The landing page inside the console app, for client-side navigation to / (after a login,
 * from a logo link). A visit that starts at / gets the prerendered page and its own lean
 * bundle instead (landing-entry.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { Link, Navigate } from "react-router";
import { useSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LandingView, type LinkProps } from "./landing-view.tsx";
import "./landing.css";

function RouterLink(props: LinkProps) {
  return <Link {...props} />;
}

export default function LandingPage() {
  const { user } = useSession();
  const trpc = useTRPC();
  const links = useQuery(trpc.waitlist.links.queryOptions(undefined, { staleTime: Infinity }));
  if (user) return <Navigate to="/homepage/dashboard" replace />;
  return <LandingView Link={RouterLink} socialUrl={links.data?.socialUrl ?? null} />;
}

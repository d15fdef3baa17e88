/**
 * The signed-in frame: top bar, side navigation, and the page in between. On phones the
 * navigation is a bottom bar of four tabs and a "More" menu for the pages used least.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, Navigate, NavLink, Outlet, useNavigate } from "react-router";
import { Logo } from "../../components/logo.tsx";
import { useRefreshSession, useSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useScrollToAnchor } from "../../lib/use-scroll-to-anchor.ts";
import { formatOpenCount } from "../review/review-format.ts";
import { AccountSwitch } from "../team/account-switch.tsx";
import { MembershipNotice } from "./membership-notice.tsx";
import { MoreMenu } from "./more-menu.tsx";
import { NavIcon } from "./nav-icons.tsx";
import { NAV } from "./nav-items.ts";

export default function ConsoleShell() {
  const { user, isLoading } = useSession();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  useScrollToAnchor();
  const reviews = useQuery(
    trpc.review.count.queryOptions(undefined, { enabled: Boolean(user), refetchInterval: 60_000 }),
  );
  const logout = useMutation(
    trpc.auth.logout.mutationOptions({
      onSettled: async () => {
        await refreshSession();
        navigate("/login");
      },
    }),
  );

  if (isLoading) return <p className="loading">Loading...</p>;
  if (!user) return <Navigate to="/login" replace />;
  // Signed in with the password, the second factor still owed (a reload mid-sign-in), or an
  // account requiring two-factor sign-in of a person without it: the login page finishes both.
  if (user.pendingTwoFactor) return <Navigate to="/login?step=two-factor" replace />;
  if (user.mustEnrolTwoFactor) return <Navigate to="/login?step=enrol" replace />;

  return (
    <div className="console">
      <header className="topbar">
        <Logo />
        <span className="product-title">Warden</span>
        <div className="topbar-actions">
          <AccountSwitch />
          <span className="user-email">{user.email}</span>
          <Link to="/homepage/settings" className="button secondary" aria-label="Settings">
            <span aria-hidden="true">⚙</span> <span className="topbar-label">Settings</span>
          </Link>
          <button type="button" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Log off
          </button>
        </div>
      </header>
      <nav className="sidebar" aria-label="Console">
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            className={({ isActive }) =>
              [item.inMore ? "nav-in-more" : "", isActive ? "active" : ""].join(" ").trim()
            }
          >
            <NavIcon name={item.icon} />
            <span className="nav-label">{item.label}</span>
            {item.label === "Review" && reviews.data && reviews.data.open > 0 && (
              <>
                {" "}
                <span className="nav-count">{formatOpenCount(reviews.data)}</span>
              </>
            )}
          </NavLink>
        ))}
        <MoreMenu items={NAV.filter((item) => item.inMore)} />
      </nav>
      <main className="console-main">
        <MembershipNotice userId={user.id} />
        <Outlet />
      </main>
    </div>
  );
}

/** The console's pages, in the sidebar's order; `inMore` ones sit in the phone bar's "More" menu. */
import type { NavIconName } from "./nav-icons.tsx";

export type NavItem = { to: string; label: string; icon: NavIconName; inMore?: boolean };

export const NAV: NavItem[] = [
  { to: "/homepage/dashboard", label: "Dashboard", icon: "dashboard" },
  { to: "/homepage/rules", label: "Rules", icon: "rules" },
  { to: "/homepage/templates", label: "Templates", icon: "templates", inMore: true },
  { to: "/homepage/risk-score", label: "Risk score", icon: "riskScore", inMore: true },
  { to: "/homepage/block-lists", label: "Block lists", icon: "blockLists", inMore: true },
  { to: "/homepage/screenings", label: "Screenings", icon: "screenings" },
  { to: "/homepage/review", label: "Review", icon: "review" },
  { to: "/homepage/alerts", label: "Alerts", icon: "alerts", inMore: true },
  { to: "/homepage/team", label: "Team", icon: "team", inMore: true },
  { to: "/homepage/audit", label: "Audit log", icon: "audit", inMore: true },
  { to: "/homepage/data-requests", label: "Data requests", icon: "dataRequests", inMore: true },
];

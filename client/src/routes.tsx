/**
 * Routes. Each area is its own chunk (lazy), so the landing page never downloads the
 * console's code.
 */
import { createBrowserRouter, Navigate } from "react-router";
import { RouteError } from "./components/route-error.tsx";

const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    // Every page is lazy, so the first render waits for its chunk: nothing is drawn meanwhile
    // (as before), said once here so react-router does not warn on every page load.
    HydrateFallback: () => null,
    children: [
      { path: "/", lazy: lazyPage(() => import("./features/landing/landing-page.tsx")) },
      { path: "/login", lazy: lazyPage(() => import("./features/auth/login-page.tsx")) },
      { path: "/signup", lazy: lazyPage(() => import("./features/auth/signup-page.tsx")) },
      {
        path: "/forgot-password",
        lazy: lazyPage(() => import("./features/auth/forgot-password-page.tsx")),
      },
      {
        path: "/reset-password",
        lazy: lazyPage(() => import("./features/auth/reset-password-page.tsx")),
      },
      {
        path: "/invite",
        lazy: lazyPage(() => import("./features/team/accept-invite-page.tsx")),
      },
      {
        path: "/confirm-email",
        lazy: lazyPage(() => import("./features/auth/confirm-email-page.tsx")),
      },
      {
        path: "/homepage",
        lazy: lazyPage(() => import("./features/shell/console-shell.tsx")),
        children: [
          { index: true, element: <Navigate to="/homepage/dashboard" replace /> },
          {
            path: "dashboard",
            lazy: lazyPage(() => import("./features/dashboard/dashboard-page.tsx")),
          },
          { path: "rules", lazy: lazyPage(() => import("./features/rules/rules-page.tsx")) },
          {
            path: "templates",
            lazy: lazyPage(() => import("./features/templates/templates-page.tsx")),
          },
          {
            path: "risk-score",
            lazy: lazyPage(() => import("./features/scoring/risk-score-page.tsx")),
          },
          {
            path: "block-lists",
            lazy: lazyPage(() => import("./features/block-lists/block-lists-page.tsx")),
          },
          {
            path: "screenings",
            lazy: lazyPage(() => import("./features/screenings/screenings-page.tsx")),
          },
          {
            path: "review",
            lazy: lazyPage(() => import("./features/review/review-page.tsx")),
          },
          {
            path: "alerts",
            lazy: lazyPage(() => import("./features/alerts/alerts-page.tsx")),
          },
          {
            path: "settings",
            lazy: lazyPage(() => import("./features/settings/settings-page.tsx")),
          },
          { path: "team", lazy: lazyPage(() => import("./features/team/team-page.tsx")) },
          { path: "audit", lazy: lazyPage(() => import("./features/audit/audit-page.tsx")) },
          {
            path: "data-requests",
            lazy: lazyPage(() => import("./features/privacy/data-requests-page.tsx")),
          },
          // An unknown console path says so; sending it to the dashboard hid the mistake.
          {
            path: "*",
            lazy: async () => ({
              Component: (await import("./components/not-found-page.tsx")).ConsoleNotFound,
            }),
          },
        ],
      },
      { path: "*", lazy: lazyPage(() => import("./components/not-found-page.tsx")) },
    ],
  },
]);

/**
 * Build-time only (scripts/prerender.ts loads it through Vite): the landing page's HTML, so
 * the hero, the feature cards and the waitlist form are there before any script runs.
 */
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { StaticLanding } from "./static-landing.tsx";

export function render(): string {
  return renderToString(
    <StrictMode>
      <StaticLanding />
    </StrictMode>,
  );
}

/**
 * Prerendering for the build (vite.config.ts): renders the landing page with react-dom/server
 * into landing.html, so / shows its hero, feature cards and waitlist form before any script
 * runs; landing-entry.tsx then hydrates that markup.
 */
import { resolve } from "node:path";
import { runnerImport } from "vite";

/** Where landing.html holds the prerendered markup. */
export const LANDING_MARKER = "<!--landing-prerender-->";

const LANDING_RENDER = resolve(
  import.meta.dirname,
  "../client/src/features/landing/landing-prerender.tsx",
);

/** The landing page's HTML, rendered through Vite (TSX, CSS imports) in this process. */
export async function renderLanding(): Promise<string> {
  const { module } = await runnerImport<{ render(): string }>(LANDING_RENDER, {
    root: resolve(import.meta.dirname, ".."),
    logLevel: "error",
  });
  return module.render();
}

/** landing.html with the rendered page in place of its marker. */
export async function prerenderLandingHtml(html: string): Promise<string> {
  if (!html.includes(LANDING_MARKER)) {
    throw new Error(`landing.html has no ${LANDING_MARKER} to prerender into`);
  }
  const markup = await renderLanding();
  return html.replace(LANDING_MARKER, () => markup);
}

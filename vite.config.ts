import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { LANDING_MARKER, renderLanding } from "./scripts/prerender.ts";

const apiTarget = `http://localhost:${process.env.PORT ?? 3000}`;

/**
 * Two pages: index.html is the console app (every route but /), landing.html is / on its own
 * lean bundle, its HTML prerendered here at build so it shows before any script runs.
 */
function prerenderLanding(): Plugin {
  let rendering: Promise<string> | undefined;
  return {
    name: "warden:prerender-landing",
    apply: "build",
    buildStart() {
      // Rendered beside the bundling; awaited when landing.html is written.
      rendering = renderLanding();
      rendering.catch(() => {});
    },
    transformIndexHtml: {
      order: "post",
      async handler(html, { filename }) {
        if (!html.includes(LANDING_MARKER)) return html;
        if (!filename.endsWith("landing.html")) return html;
        const markup = await (rendering ?? renderLanding());
        return html.replace(LANDING_MARKER, () => markup);
      },
    },
  };
}

export default defineConfig({
  root: "client",
  plugins: [react(), prerenderLanding()],
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      input: {
        index: resolve(import.meta.dirname, "client/index.html"),
        landing: resolve(import.meta.dirname, "client/landing.html"),
      },
      output: {
        // React in a chunk of its own, shared by both pages and named for what it is.
        codeSplitting: {
          groups: [
            { name: "react", test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ["/trpc", "/api", "/webhooks", "/healthz"].map((path) => [path, apiTarget]),
    ),
  },
});

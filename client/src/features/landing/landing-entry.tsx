/**
 * The landing page's own bundle (landing.html, served at /): React and this page only, no
 * router, react-query, tRPC client or zod. It hydrates the prerendered HTML, sends a
 * signed-in visitor to the console (the server does too; this covers a page from cache) and
 * shows the social link.
 */
import "../../styles.css";
import "./landing.css";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { readVisitor } from "./landing-api.ts";
import { StaticLanding } from "./static-landing.tsx";

const visitor = readVisitor();
void visitor.then(({ signedIn }) => {
  if (signedIn) window.location.replace("/homepage/dashboard");
});

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from landing.html");
const app = (
  <StrictMode>
    <StaticLanding visitor={visitor} />
  </StrictMode>
);
// The dev server serves landing.html without the prerendered markup.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);

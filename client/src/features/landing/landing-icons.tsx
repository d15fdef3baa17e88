/** Small inline icons for the landing page: no icon font or image requests on first paint. */
import type { FeatureCard } from "./landing-content.ts";

const PATHS: Record<FeatureCard["icon"] | "check", string> = {
  check: "M5 12.5 9.5 17 19 7.5",
  rules: "M4 6h10M4 12h16M4 18h7M17 4v4M14 18h6M17 16v4",
  shield: "M12 3 5 6v6c0 4.4 3 8.1 7 9 4-0.9 7-4.6 7-9V6zM9 12l2 2 4-4",
  templates: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM16.5 13v7M13 16.5h7",
};

export function Icon({ name, className }: { name: keyof typeof PATHS; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

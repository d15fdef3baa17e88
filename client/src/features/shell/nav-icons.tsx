/** The console navigation's icons: inline, so the bottom bar on phones needs no image requests. */
const PATHS = {
  dashboard: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  rules: "M4 6h10M4 12h16M4 18h7M17 4v4M14 18h6M17 16v4",
  templates: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM16.5 13v7M13 16.5h7",
  blockLists: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8",
  riskScore: "M3 17a9 9 0 0 1 18 0M12 17l4-6M3 21h18",
  screenings: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM16 16l5 5",
  review: "M4 5h16v11H9l-5 4zM8 10.5l2.5 2.5L16 8",
  alerts: "M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  team: "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21v-1a6 6 0 0 1 12 0v1M16 3.5a4 4 0 0 1 0 7.5M22 21v-1a6 6 0 0 0-4-5.6",
  audit: "M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7M9 8h3",
  dataRequests:
    "M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6zM12 8a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM8.5 16a3.5 3.5 0 0 1 7 0",
} as const;

export type NavIconName = keyof typeof PATHS;

export function NavIcon({ name }: { name: NavIconName }) {
  return (
    <svg
      className="nav-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth={name === "more" ? 3 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/** The landing page's claims and feature cards, worded as in the product spec (§1). */

export const HERO_LINES = ["A single Toolkit", "To stop all abuses"] as const;

export const TAGLINE =
  "Warden is the abuse-prevention toolkit for startups, indie developers and merchants who take card payments with Stripe.";

export const CHARGEBACK_HEADLINE = "Fight chargebacks and disputes before they occur";

export const BENEFITS = [
  "Blocks fake signups, promo and affiliation fraud, refund abuse and card testing",
  "About 5 minutes to integrate",
  "Real-time dashboards",
] as const;

export type FeatureCard = {
  icon: "rules" | "shield" | "templates";
  title: string;
  items: string[];
};

// Items keep the spec's exact wording; the stylesheet capitalizes their first letter.
export const FEATURE_CARDS: FeatureCard[] = [
  {
    icon: "rules",
    title: "Smart Detection Rules",
    items: [
      "one trial per device/IP/email",
      "block disposable or low-reputation emails",
      "scraping and throttling detection",
      "promo/referral abuse detection",
    ],
  },
  {
    icon: "shield",
    title: "Advanced Protection",
    items: [
      "behavioral entropy and bot detection",
      "card/device fingerprinting",
      "promo and refund abuse analytics",
      "velocity and anomaly detection",
    ],
  },
  {
    icon: "templates",
    title: "Plug and Play Templates",
    items: [
      "One Human One Trial",
      "Fake Viral Growth Prevention",
      "Refund Abuser Flag",
      "Stealth Scraper Deterrent",
    ],
  },
];

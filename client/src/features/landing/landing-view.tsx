/**
 * The landing page's markup (route /): header, hero, waitlist, feature cards and footer.
 * Router-free, so the same tree is prerendered at build (landing-prerender.tsx), hydrated by
 * the lean landing bundle (landing-entry.tsx) and shown by the console's router
 * (landing-page.tsx), which passes its own Link.
 */
import type { ReactNode } from "react";
import { LogoMark } from "../../components/logo-mark.tsx";
import {
  BENEFITS,
  CHARGEBACK_HEADLINE,
  FEATURE_CARDS,
  HERO_LINES,
  TAGLINE,
} from "./landing-content.ts";
import { Icon } from "./landing-icons.tsx";
import { WaitlistForm } from "./waitlist-form.tsx";

export type LinkProps = {
  to: string;
  className?: string;
  "aria-label"?: string;
  children: ReactNode;
};

/** A full page load: the landing bundle carries no router. */
function PlainLink({ to, ...props }: LinkProps) {
  return <a href={to} {...props} />;
}

type Props = {
  /** The link to use for /, /login and /signup (react-router's inside the console app). */
  Link?: (props: LinkProps) => ReactNode;
  /** The project's social profile, once known (spec §1); nothing is shown until then. */
  socialUrl: string | null;
};

export function LandingView({ Link = PlainLink, socialUrl }: Props) {
  const logo = (
    <Link to="/" className="logo" aria-label="Warden home">
      <LogoMark />
    </Link>
  );
  return (
    <div className="landing">
      <header className="landing-header">
        {logo}
        <nav className="landing-nav" aria-label="Account">
          <Link to="/login" className="landing-nav-login">
            Log In
          </Link>
          <Link to="/signup" className="button">
            Sign Up
          </Link>
        </nav>
      </header>

      <main>
        <section className="landing-hero" aria-labelledby="hero-title">
          <p className="landing-eyebrow">Abuse prevention for Stripe merchants</p>
          <h1 id="hero-title">
            <span>{HERO_LINES[0]}</span> <span className="landing-accent">{HERO_LINES[1]}</span>
          </h1>
          <p className="landing-tagline">{TAGLINE}</p>
          <div className="landing-benefits">
            <h2>{CHARGEBACK_HEADLINE}</h2>
            <ul aria-label="Benefits">
              {BENEFITS.map((benefit) => (
                <li key={benefit}>
                  <Icon name="check" className="landing-check" />
                  <span>{benefit}</span>
                </li>
              ))}
            </ul>
          </div>
          <Link to="/signup" className="button landing-cta">
            Sign Up
          </Link>
          <p className="landing-login-hint">
            Already have an account? <Link to="/login">Log In</Link>
          </p>
        </section>

        <section className="landing-waitlist" aria-labelledby="waitlist-title">
          <h2 id="waitlist-title">Join the waitlist</h2>
          <p>Leave your email to hear when new protections and templates ship.</p>
          <WaitlistForm />
        </section>

        <section className="landing-features" aria-labelledby="features-title">
          <h2 id="features-title">Everything you need to stop abuse</h2>
          <div className="landing-cards">
            {FEATURE_CARDS.map((card) => (
              <article key={card.title} className="landing-card" aria-labelledby={cardId(card)}>
                <span className="landing-card-icon">
                  <Icon name={card.icon} />
                </span>
                <h3 id={cardId(card)}>{card.title}</h3>
                <ul>
                  {card.items.map((item) => (
                    <li key={item}>
                      <Icon name="check" className="landing-check" />
                      <span>{item}</span>
                    </li>
                  ))}
                </ul>
              </article>
            ))}
          </div>
        </section>
      </main>

      <footer className="landing-footer">
        {logo}
        <p>Stop fake signups, promo abuse, refund abuse and card testing.</p>
        {socialUrl && (
          <a href={socialUrl} rel="me noopener" className="landing-social">
            Follow Warden for project news
          </a>
        )}
      </footer>
    </div>
  );
}

const cardId = (card: { title: string }) => `card-${card.title.toLowerCase().replaceAll(" ", "-")}`;

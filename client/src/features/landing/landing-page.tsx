/** The public landing page (route /): hero, waitlist, feature cards and footer. */
import { useQuery } from "@tanstack/react-query";
import { Link, Navigate } from "react-router";
import { Logo } from "../../components/logo.tsx";
import { useSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import {
  BENEFITS,
  CHARGEBACK_HEADLINE,
  FEATURE_CARDS,
  HERO_LINES,
  TAGLINE,
} from "./landing-content.ts";
import { Icon } from "./landing-icons.tsx";
import { WaitlistForm } from "./waitlist-form.tsx";
import "./landing.css";

export default function LandingPage() {
  const { user } = useSession();
  if (user) return <Navigate to="/homepage/dashboard" replace />;
  return (
    <div className="landing">
      <header className="landing-header">
        <Logo />
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

      <LandingFooter />
    </div>
  );
}

const cardId = (card: { title: string }) => `card-${card.title.toLowerCase().replaceAll(" ", "-")}`;

function LandingFooter() {
  const trpc = useTRPC();
  const links = useQuery(trpc.waitlist.links.queryOptions(undefined, { staleTime: Infinity }));
  return (
    <footer className="landing-footer">
      <Logo />
      <p>Stop fake signups, promo abuse, refund abuse and card testing.</p>
      {links.data && (
        <a href={links.data.socialUrl} rel="me noopener" className="landing-social">
          Follow Warden for project news
        </a>
      )}
    </footer>
  );
}

import { Link, Navigate } from "react-router";
import { Logo } from "../../components/logo.tsx";
import { useSession } from "../../lib/session.ts";

export default function LandingPage() {
  const { user } = useSession();
  if (user) return <Navigate to="/homepage/dashboard" replace />;
  return (
    <div className="landing">
      <header className="site-header">
        <Logo />
        <nav className="site-nav" aria-label="Account">
          <Link to="/login">Log In</Link>
          <Link to="/signup" className="button">
            Sign Up
          </Link>
        </nav>
      </header>
      <main>
        <section className="hero">
          <h1>
            A single Toolkit
            <br />
            To stop all abuses
          </h1>
          <Link to="/signup" className="button">
            Sign Up
          </Link>
        </section>
      </main>
    </div>
  );
}

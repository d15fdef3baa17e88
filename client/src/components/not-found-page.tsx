import { Link } from "react-router";
import "./console.css";

export default function NotFoundPage() {
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link to="/">Back to the start</Link>
      </div>
    </main>
  );
}

/** An unknown path under /homepage: said so inside the console, its navigation still there. */
export function ConsoleNotFound() {
  return (
    <section className="config-section" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>There is no console page at this address.</p>
      <Link to="/homepage/dashboard">Go to the dashboard</Link>
    </section>
  );
}

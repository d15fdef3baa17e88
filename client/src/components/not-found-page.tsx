import { Link } from "react-router";

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

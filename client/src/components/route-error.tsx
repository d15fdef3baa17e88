import { isRouteErrorResponse, Link, useRouteError } from "react-router";

export function RouteError() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : "This page failed to load. Reload to try again.";
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Something went wrong</h1>
        <p role="alert">{text}</p>
        <Link to="/">Back to the start</Link>
      </div>
    </main>
  );
}

import type { ReactNode } from "react";
import { Logo } from "../../components/logo.tsx";

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="card">
        <Logo />
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** A success or error line under a form; screen readers hear it when it appears. */
export function FormMessage({ kind, text }: { kind: "error" | "success"; text?: string | null }) {
  if (!text) return null;
  return (
    <p className={`message ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {text}
    </p>
  );
}

/**
 * Allowed origins (Settings → API keys) and refused collects. The list is policy: the policy
 * loader reads it (the collector answers only these origins, rule_referrer_mismatch compares
 * with them), so every change is announced and each instance reloads. A collect refused for
 * its origin is recorded per account and origin, at most once a minute per origin and
 * REFUSALS_PER_MINUTE new writes per account (per instance), and only the newest
 * KEEP_REFUSALS origins are kept: the key is public, so anyone can make refusals.
 */
import {
  type AllowedOriginsView,
  MAX_ALLOWED_ORIGINS,
  type RefusedOrigin,
} from "../../../shared/schemas/allowed-origins.ts";
import { AppError } from "../../lib/app-error.ts";
import { createBrowserWindows } from "./browser-windows.ts";
import type { OriginsRepository } from "./origins.repository.ts";

const KEEP_REFUSALS = 20;
const REFUSALS_PER_MINUTE = 30;
const REWRITE_AFTER_MS = 60_000;
const SUGGESTED = 5;

type Deps = {
  repo: OriginsRepository;
  onChange(accountId: string): void;
};

/** Why a collect from `origin` is refused, and where to allow it. */
export function refusalMessage(origin: string | null): string {
  return (
    `Origin ${origin ?? "(none)"} is not one of this account's allowed origins: ` +
    "allow it in Settings → API keys → Allowed origins."
  );
}

export function createOriginsService({ repo, onChange }: Deps) {
  const written = new Map<string, number>();
  const perAccount = createBrowserWindows({ limit: REFUSALS_PER_MINUTE, maxBuckets: 10_000 });

  function refusedView(row: {
    origin: string;
    reason: string;
    firstAt: Date;
    lastAt: Date;
    count: number;
  }): RefusedOrigin {
    return {
      origin: row.origin,
      reason: row.reason,
      first_at: row.firstAt.toISOString(),
      last_at: row.lastAt.toISOString(),
      count: row.count,
    };
  }

  async function view(accountId: string): Promise<AllowedOriginsView> {
    const [origins, refusals] = await Promise.all([
      repo.allowed(accountId),
      repo.refusals(accountId),
    ]);
    const allowed = new Set(origins);
    return {
      origins,
      refused: refusals
        .filter((row) => !allowed.has(row.origin))
        .slice(0, SUGGESTED)
        .map(refusedView),
    };
  }

  return {
    /** The account's allowed origins (what the policy loader reads). */
    allowed: (accountId: string) => repo.allowed(accountId),

    view,

    /** Replaces the list (duplicates dropped, order kept). */
    async set(accountId: string, origins: string[]): Promise<AllowedOriginsView> {
      await repo.save(accountId, [...new Set(origins)]);
      onChange(accountId);
      return view(accountId);
    },

    /** Adds one origin (the console's "Allow" on a refused origin); listed already: unchanged. */
    async allow(accountId: string, origin: string): Promise<AllowedOriginsView> {
      const origins = await repo.allowed(accountId);
      if (!origins.includes(origin)) {
        if (origins.length >= MAX_ALLOWED_ORIGINS) {
          throw new AppError(
            "BAD_REQUEST",
            `origin: this account lists ${MAX_ALLOWED_ORIGINS} origins already; remove one first.`,
            { issues: [{ path: "origin", message: `at most ${MAX_ALLOWED_ORIGINS} origins` }] },
          );
        }
        await repo.add(accountId, origin);
        onChange(accountId);
      }
      return view(accountId);
    },

    /**
     * Records that a collect from `origin` was refused (best effort: a refusal is answered
     * whether or not this is written). Returns whether it wrote.
     */
    async recordRefusal(accountId: string, origin: string, at: Date): Promise<boolean> {
      const key = `${accountId} ${origin}`;
      const last = written.get(key);
      if (last !== undefined && at.getTime() - last < REWRITE_AFTER_MS) return false;
      if (perAccount.hit(accountId, at.getTime()) !== null) return false;
      if (written.size > 10_000) written.clear();
      written.set(key, at.getTime());
      await repo.recordRefusal({
        accountId,
        origin,
        reason: refusalMessage(origin),
        at,
        keep: KEEP_REFUSALS,
      });
      return true;
    },

    /** The refusal recorded for this account and origin, if any. */
    async refusal(accountId: string, origin: string): Promise<RefusedOrigin | null> {
      const row = await repo.refusal(accountId, origin);
      return row ? refusedView(row) : null;
    },
  };
}

export type OriginsService = ReturnType<typeof createOriginsService>;

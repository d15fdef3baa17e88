/**
 * The browser collector's server side. Collect: a publishable key and an Origin among the
 * merchant's allowed origins (Settings → API keys) turn what warden.js sent, and what its
 * request's own headers said (screening/features/collect-request.ts, decision 024), into a single-use token,
 * valid 10 minutes; what was collected stays here, only the token's SHA-256 is stored. Consume: a
 * screening of the same account takes what the token holds, once.
 *
 * A collect from an origin not allowed is refused with a 403 the page can read (its route
 * answers CORS for any origin), and the refusal is recorded (origins.service.ts): warden.js
 * then resolves to a refusal token (shared/collector-refusal.ts), and a screening sent it
 * answers `signals: "refused"` with the recorded reason.
 *
 * The key is public (it is in the merchant's pages), so every check that costs nothing comes
 * before any budget is spent: the key (authorize), then the Origin, then the browser's own
 * per-minute budget, and only then the key's (admit); the body is read after those (its
 * route parses it), and collect stores it. A preflight spends nothing. A key keeps at most
 * TOKENS_PER_KEY tokens, the oldest evicted first (decision 013).
 */

import { refusedOriginOf } from "../../../shared/collector-refusal.ts";
import { canonicalIp } from "../../../shared/ip-address.ts";
import {
  type CollectedSignals,
  type CollectInput,
  type CollectResult,
  type RequestSignals,
  SIGNALS_TOKEN_PREFIX,
  SIGNALS_TOKEN_TTL_MS,
  type SignalsStatus,
  ZStoredSignals,
} from "../../../shared/schemas/collect.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { ApiKeysService } from "../api-keys/api-keys.service.ts";
import type { PolicyService } from "../policy/policy.service.ts";
import { collectRequestOf, type Headers, ipKeys } from "../screening/screening.entry.ts";
import { createBrowserWindows } from "./browser-windows.ts";
import type { CollectorTokensRepository } from "./collector-tokens.repository.ts";
import { type OriginsService, refusalMessage } from "./origins.service.ts";

const TOKEN_SHAPE = /^wdn_sig_[A-Za-z0-9_-]{16,64}$/;

type Deps = {
  repo: CollectorTokensRepository;
  apiKeys: Pick<ApiKeysService, "identify" | "spend">;
  policy: Pick<PolicyService, "load">;
  /** Records refused collects and finds them again for a refusal token. */
  origins: Pick<OriginsService, "recordRefusal" | "refusal">;
  now: () => Date;
  /** Collects per publishable key and browser IP (an IPv6 /64) per minute, per instance. */
  perIpPerMinute: number;
  /** The most tokens a key keeps (TOKENS_PER_KEY unless configured). */
  tokensPerKey: number;
};

/** The most tokens one publishable key keeps (a real page makes one per form submit). */
export const TOKENS_PER_KEY = 20_000;
const IP_WINDOWS_MAX = 50_000;

/** A collect's caller and the allowed Origin it came from (null: not allowed). */
export type Access = { caller: Caller; origin: string | null; sentOrigin: string | null };

/** The collect request as the transport saw it: its headers, and http or https. */
export type Sent = { headers: Headers; protocol: string };

/**
 * A collect let in by admit: from an allowed Origin, within its budgets, at this time, and
 * what its own headers said (screening/features/collect-request.ts).
 */
export type Admitted = {
  access: Access & { origin: string };
  ip: string;
  at: Date;
  request: RequestSignals;
};

/** What became of a screening's token; `reason` says why a collect was refused. */
export type Consumed = {
  status: SignalsStatus;
  /** What warden.js collected, when the token was accepted. */
  collected: CollectedSignals | null;
  reason?: string;
};

/** An origin as browsers send it (scheme, host, port), or null when it is not one. */
export function originOf(value: string | undefined): string | null {
  if (!value || value === "null") return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

export function createCollectorService({
  repo,
  apiKeys,
  policy,
  origins,
  now,
  perIpPerMinute,
  tokensPerKey,
}: Deps) {
  const browsers = createBrowserWindows({ limit: perIpPerMinute, maxBuckets: IP_WINDOWS_MAX });

  function spend(bucket: string, at: number): void {
    const retryAfterSeconds = browsers.hit(bucket, at);
    if (retryAfterSeconds !== null) {
      throw new AppError("TOO_MANY_REQUESTS", "Too many collects from this browser. Slow down.", {
        retryAfterSeconds,
      });
    }
  }

  /** The publishable key's caller, no budget spent; 401 without one, 403 for a secret key. */
  async function publishableCaller(key: string | undefined): Promise<Caller> {
    if (!key) {
      throw new AppError("UNAUTHORIZED", "key: a publishable key (wdn_pk_…) is required.");
    }
    const caller = await apiKeys.identify(key);
    if (!caller?.key) throw new AppError("UNAUTHORIZED", "key: unknown or revoked API key.");
    if (caller.key.kind !== "publishable") {
      throw new AppError(
        "FORBIDDEN",
        "key: this is a secret key, which must never be used in a browser. Use a publishable " +
          "key (wdn_pk_…) with warden.js, and roll this secret key in Settings → API keys.",
      );
    }
    return caller;
  }

  async function allowedOrigin(accountId: string, origin: string | null): Promise<boolean> {
    if (!origin) return false;
    const loaded = await policy.load(accountId);
    return (loaded.allowedOrigins ?? []).some((allowed) => originOf(allowed) === origin);
  }

  return {
    /**
     * Who collects (a publishable key; 401 without one, 403 for a secret key) and the Origin
     * it may answer (null when the page is not among the account's allowed origins).
     */
    async authorize(key: string | undefined, origin: string | undefined): Promise<Access> {
      const caller = await publishableCaller(key);
      const normalized = originOf(origin);
      return {
        caller,
        origin: (await allowedOrigin(caller.accountId, normalized)) ? normalized : null,
        sentOrigin: origin ?? null,
      };
    },

    /**
     * Lets a collect in: 403 from an Origin that is not allowed (recorded, when it is one),
     * 429 past the browser's budget or the key's (spent in that order). Its body is read only
     * after this.
     */
    async admit(access: Access, ip: string, sent: Sent): Promise<Admitted> {
      const { origin } = access;
      const at = now();
      if (!origin) {
        const sent = originOf(access.sentOrigin ?? undefined);
        // Best effort: the refusal is answered whether or not it could be written.
        if (sent) await origins.recordRefusal(access.caller.accountId, sent, at).catch(() => false);
        throw new AppError("FORBIDDEN", refusalMessage(sent ?? access.sentOrigin));
      }
      const keyId = access.caller.key?.id ?? "";
      spend(`${keyId}:${browserOf(ip)}`, at.getTime());
      apiKeys.spend(keyId);
      // Chromium sends its client hints only over https, and (for a fetch) from an https page.
      const secure = sent.protocol === "https" && origin.startsWith("https:");
      return {
        access: { ...access, origin },
        ip,
        at,
        request: collectRequestOf(sent.headers, secure),
      };
    },

    /** Stores what an admitted collect sent under a new single-use token. */
    async collect(
      { access, ip, at, request }: Admitted,
      input: CollectInput,
    ): Promise<CollectResult> {
      const token = `${SIGNALS_TOKEN_PREFIX}${randomToken(24)}`;
      const expiresAt = new Date(at.getTime() + SIGNALS_TOKEN_TTL_MS);
      await repo.create({
        accountId: access.caller.accountId,
        apiKeyId: access.caller.key?.id ?? "",
        tokenHash: sha256Hex(token),
        createdAt: at,
        expiresAt,
        origin: access.origin,
        collectIp: canonicalIp(ip), // one form per address (::ffff:a.b.c.d is a.b.c.d)
        collected: { ...input, request },
        keep: tokensPerKey,
      });
      return { token, expires_at: expiresAt.toISOString() };
    },

    /** Takes what a token holds for a screening of this account, once; never throws for a bad token. */
    async consume(accountId: string, token: string): Promise<Consumed> {
      const refusedOrigin = refusedOriginOf(token);
      if (refusedOrigin !== null) {
        // Only an origin as collect records it is looked up (the token is the browser's word).
        if (originOf(refusedOrigin) !== refusedOrigin)
          return { status: "invalid", collected: null };
        const refusal = await origins.refusal(accountId, refusedOrigin);
        if (!refusal) return { status: "invalid", collected: null };
        return { status: "refused", collected: null, reason: refusal.reason };
      }
      if (!TOKEN_SHAPE.test(token)) return { status: "invalid", collected: null };
      const at = now();
      const hash = sha256Hex(token);
      const row = await repo.consume(accountId, hash, at);
      if (row) {
        const stored = ZStoredSignals.safeParse(row.signals);
        if (!stored.success) return { status: "invalid", collected: null };
        return {
          status: "accepted",
          collected: { ...stored.data, origin: row.origin, collect_ip: row.collectIp },
        };
      }
      const known = await repo.find(accountId, hash);
      if (!known) return { status: "invalid", collected: null };
      return { status: known.consumedAt ? "used" : "expired", collected: null };
    },

    /** One batch of tokens past their account's retention after expiry (housekeeping). */
    purgeExpired(now: Date, defaultDays: number, batch: number): Promise<number> {
      return repo.purgeExpired(now, defaultDays, batch);
    },
  };
}

/** Who one browser is for the per-minute budget: its IPv4 address, or its IPv6 /64. */
function browserOf(ip: string): string {
  try {
    return ipKeys(ip).ip;
  } catch {
    return ip;
  }
}

export type CollectorService = ReturnType<typeof createCollectorService>;

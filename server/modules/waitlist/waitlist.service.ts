/** Waitlist use cases for the landing page: joining, and where else to follow the project. */
import { MESSAGES } from "../../../shared/messages.ts";
import type { WaitlistJoin, WaitlistJoinResult } from "../../../shared/schemas/waitlist.ts";
import type { Limit, ThrottleService } from "../throttle/throttle.service.ts";
import type { WaitlistRepository } from "./waitlist.repository.ts";

export const WAITLIST_LIMITS = {
  // Generous for a person behind a shared office NAT, tight enough to stop list-stuffing and
  // probing which addresses are already listed.
  joinPerIp: { limit: 10, windowMs: 60_000, message: MESSAGES.waitlistTooManyRequests },
} satisfies Record<string, Limit>;

type Deps = {
  repo: WaitlistRepository;
  throttle: ThrottleService;
  socialUrl: string;
  now: () => Date;
};

export function createWaitlistService({ repo, throttle, socialUrl, now }: Deps) {
  return {
    /** Adds an already-validated, normalized email; a repeat is an answer, not an error. */
    async join({ email }: WaitlistJoin, ip: string): Promise<WaitlistJoinResult> {
      await throttle.consume(`waitlist-ip:${ip}`, WAITLIST_LIMITS.joinPerIp);
      const inserted = await repo.insert(email, now());
      return { status: inserted ? "joined" : "already_listed" };
    },

    /** Where the landing page points visitors for project news besides the waitlist. */
    links(): { socialUrl: string } {
      return { socialUrl };
    },
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;

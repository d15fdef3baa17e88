import { describe, expect, it } from "vitest";
import { backoffMs } from "./stripe-actions.service.ts";

describe("backoffMs", () => {
  it.each([
    { attempts: 0, ms: 1000 },
    { attempts: 1, ms: 1000 },
    { attempts: 2, ms: 2000 },
    { attempts: 3, ms: 4000 },
    { attempts: 9, ms: 256_000 },
    { attempts: 10, ms: 300_000 },
    { attempts: 50, ms: 300_000 },
  ])("after $attempts attempts waits $ms ms", ({ attempts, ms }) => {
    expect(backoffMs(attempts)).toBe(ms);
  });
});

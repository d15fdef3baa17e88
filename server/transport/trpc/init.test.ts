import { describe, expect, it } from "vitest";
import type { Caller } from "../../lib/caller.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import {
  apiKeyProcedure,
  createCallerFactory,
  createContextInner,
  protectedProcedure,
  router,
} from "./init.ts";

// The procedures under test read only the caller; no service is reached.
const services = {} as Services;
// Named as real operations (transport/access.ts refuses a path it has no rule for): one a
// console member with read access may call, one for a backend's secret key.
const probe = router({
  dashboard: router({ summary: protectedProcedure.query(({ ctx }) => ctx.caller) }),
  screeningsApi: router({ get: apiKeyProcedure.query(({ ctx }) => ctx.caller) }),
  unlisted: protectedProcedure.query(({ ctx }) => ctx.caller),
});
const callerOf = createCallerFactory(probe);

const session: ValidSession = {
  id: "s1",
  expiresAt: new Date(Date.now() + 60_000),
  extended: false,
  pendingTwoFactor: false,
  mustEnrolTwoFactor: false,
  accounts: [{ accountId: "acct_a", role: "viewer" }],
  user: { id: "u1", email: "a@example.com", accountId: "acct_a", role: "viewer", twoFactor: false },
};
const viaSession: Caller = {
  accountId: "acct_a",
  userId: "u1",
  email: "a@example.com",
  role: "viewer",
  via: "session",
};
const viaKey: Caller = { accountId: "acct_a", via: "apiKey", key: { id: "k1", kind: "secret" } };
const viaPublishable: Caller = {
  accountId: "acct_a",
  via: "apiKey",
  key: { id: "k2", kind: "publishable" },
};

describe("procedure builders", () => {
  it.each([
    {
      name: "no caller",
      caller: null,
      session: null,
      console: "UNAUTHORIZED",
      backend: "UNAUTHORIZED",
    },
    {
      name: "a console session",
      caller: viaSession,
      session,
      console: "ok",
      backend: "UNAUTHORIZED",
    },
    { name: "an API key", caller: viaKey, session: null, console: "UNAUTHORIZED", backend: "ok" },
    {
      name: "a publishable key",
      caller: viaPublishable,
      session: null,
      console: "UNAUTHORIZED",
      backend: "FORBIDDEN",
    },
  ])("$name: console $console, backend $backend", async (row) => {
    const api = callerOf(
      createContextInner({ services, caller: row.caller, session: row.session }),
    );
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (error: { code?: string }) => error.code,
      );
    expect(await outcome(api.dashboard.summary())).toBe(row.console);
    expect(await outcome(api.screeningsApi.get())).toBe(row.backend);
  });

  it("hands the caller identity on to the procedure", async () => {
    const api = callerOf(createContextInner({ services, caller: viaKey }));
    expect(await api.screeningsApi.get()).toEqual(viaKey);
  });

  it("refuses a procedure the access table does not name, even to a signed-in member", async () => {
    const api = callerOf(createContextInner({ services, caller: viaSession, session }));
    await expect(api.unlisted()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Caller } from "../../lib/caller.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import { op } from "../operation.ts";
import { createCallerFactory, createContextInner } from "./init.ts";
import { appRouterOf } from "./procedures.ts";

// The procedures under test read only the caller; no service is reached. One a console member
// with read access may call, one for a backend's secret key, and one that takes an input.
const services = {} as Services;
const areas = {
  dashboard: {
    summary: op({ need: "read", kind: "query", handler: ({ caller }) => caller }),
    withInput: op({
      need: "read",
      kind: "mutation",
      input: z.strictObject({ n: z.number() }),
      handler: (_, input) => input.n,
    }),
  },
  screeningsApi: {
    get: op({ need: "apiKey", kind: "query", handler: ({ caller }) => caller }),
    restOnly: op({ need: "apiKey", kind: "query", trpc: false, handler: () => 1 }),
  },
};
const probe = appRouterOf(areas);
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

describe("procedures built from rows", () => {
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

  it("checks the caller before the input is read", async () => {
    const api = callerOf(createContextInner({ services }));
    await expect(api.dashboard.withInput({ n: "x" } as never)).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    const member = callerOf(createContextInner({ services, caller: viaSession, session }));
    await expect(member.dashboard.withInput({ n: "x" } as never)).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await member.dashboard.withInput({ n: 3 })).toBe(3);
  });

  it("makes no procedure of a REST-only row", () => {
    expect(Object.keys(probe._def.procedures).sort()).toEqual([
      "dashboard.summary",
      "dashboard.withInput",
      "screeningsApi.get",
    ]);
  });
});

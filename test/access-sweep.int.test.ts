/**
 * The role sweep: every tRPC procedure and every REST route Fastify registered under /api,
 * called over HTTP as each role of one account (owner, admin, analyst, viewer), and the
 * answer compared with the matrix (shared/team/roles.ts) through the one table of what each
 * operation needs (server/transport/operations/: one row each, the table built from them): a
 * role without the permission gets 403, a role with it never does. Each operation is served
 * exactly where the table says: a procedure, a route, or both. Then the routes that name a thing by id, called by a member of another
 * account with this account's ids: 404 every time, and nothing changed.
 *
 * The gate checks before the input is read, so the inputs here need not be valid: a call a
 * role may make answers 2xx, 400, 404 or 409 (never 403), one it may not make is a 403 with
 * the role's message. Calls that would change who is in the account (leaving it) are made
 * last, on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Need, OPERATIONS } from "../server/transport/access.ts";
import { REST_ROWS } from "../server/transport/rest/rest.plugin.ts";
import { appRouter } from "../server/transport/trpc/app.router.ts";
import { MESSAGES } from "../shared/messages.ts";
import { can, type Permission, ROLES, type Role } from "../shared/team/roles.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import { backendOf } from "./helpers/screening.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

/** Every REST route of a row: method, path under /api, operation. */
const rows = REST_ROWS.map((row) => ({
  method: row.rest.method,
  url: `/api${row.rest.path}`,
  op: row.name,
  need: row.need,
}));
/** Routes that check the gate themselves (a stream, a CSV file): method and path → operation. */
const DIRECT: Record<string, string> = Object.fromEntries(
  Object.entries(OPERATIONS)
    .filter(([name, operation]) => operation.rest && !rows.some((r) => r.op === name))
    .map(([name, operation]) => [operation.rest as string, name]),
);
/** Registered under /api but not operations: the API's own description, a CORS preflight. */
const NOT_OPERATIONS = new Set([
  "OPTIONS /api/v1/collect",
  "GET /api/openapi.json",
  "GET /api/docs",
  "GET /api/docs/json",
  "GET /api/docs/yaml",
  "GET /api/docs/static/*",
  "GET /api/docs/static/index.html",
  "GET /api/docs/static/swagger-initializer.js",
]);
/** Valid bodies for the routes that name a thing and take a body (the 404 sweep). */
const VALID_BODIES: Record<string, unknown> = {
  "PUT /api/team/members/:user_id": { role: "analyst" },
  "PUT /api/alerts/:id": { name: "swept", metric: "block_rate", threshold: 5 },
};
/** Changes who is in the account: swept after everything else. */
const LAST = new Set(["team.leave", "POST /api/team/leave", "team.transferOwnership"]);

const isPermission = (need: Need): need is Permission =>
  !["self", "signingIn", "apiKey", "public"].includes(need);

/** What a signed-in member with `role` must get from an operation that needs `need`. */
function expected(need: Need, role: Role): "403" | "401" | "not 403" {
  if (need === "apiKey") return "401";
  if (isPermission(need)) return can(role, need) ? "not 403" : "403";
  return "not 403";
}

describe.each(DB_KINDS)("access sweep on %s", (kind) => {
  let t: TestApp;
  let owner: Merchant;
  let other: Merchant;
  const members = {} as Record<Role, { userId: string }>;
  const registered: { method: string; url: string }[] = [];
  const figures = { calls: 0, refused: 0 };
  /** This account's ids, for the routes that name one. */
  const ids: Record<string, string | undefined> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, {
      onRoute: (route) => {
        for (const method of [route.method].flat()) registered.push({ method, url: route.url });
      },
    });
    owner = await signedInMerchant(t, `owner-${kind}@sweep.example`);
    other = await signedInMerchant(t, `other-${kind}@elsewhere.example`);
    members.owner = {
      userId: (await t.prisma.user.findUniqueOrThrow({ where: { email: owner.email } })).id,
    };
    // The other roles: people with their own sign-up, made members of the owner's account.
    for (const role of ["admin", "analyst", "viewer"] as const) {
      const person = await signedInMerchant(t, `${role}-${kind}@sweep.example`);
      const user = await t.prisma.user.findUniqueOrThrow({ where: { email: person.email } });
      await t.prisma.membership.create({
        data: { accountId: owner.accountId, userId: user.id, role },
      });
      members[role] = { userId: user.id };
    }
    // Things with ids in the owner's account.
    const backend = await backendOf(t, owner);
    const screening = await backend.decide({ type: "signup", email: "someone@sweep.example" });
    ids.screening = screening.id;
    const allowed = await owner.api.json<{ id: string }>("/api/allowlist", {
      body: { kind: "email", value: "vip@sweep.example" },
    });
    ids.allowEntry = allowed.body.id;
    const key = await owner.api.json<{ id: string }>("/api/api-keys", {
      body: { name: "swept key" },
    });
    ids.apiKey = key.body.id;
    ids.member = members.viewer.userId;
    const invite = await t.prisma.invite.create({
      data: {
        accountId: owner.accountId,
        email: "invited@sweep.example",
        role: "viewer",
        tokenHash: `sweep-${kind}`,
        invitedBy: members.owner.userId,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    ids.invite = invite.id;
    // A proposed version (its weights are never read here: the other account cannot reach it).
    const model = await t.prisma.scoreModel.create({
      data: { accountId: owner.accountId, version: 1, weights: {}, status: "proposed" },
    });
    ids.model = model.id;
    // One of the account's default alerts.
    const alert = await t.prisma.alertRule.findFirstOrThrow({
      where: { accountId: owner.accountId },
    });
    ids.alert = alert.id;
  }, 120_000);
  afterAll(async () => {
    console.log(
      `[access sweep, ${kind}] ${procedures.length} procedures and ${
        registered.filter((r) => r.url.startsWith("/api/")).length
      } REST routes × ${ROLES.length} roles: ${figures.calls} calls, ${figures.refused} refused with 403`,
    );
    await t?.close();
  });

  /** This account's id of the kind a route names. */
  function idIn(url: string): string {
    if (url.includes("/allowlist/")) return ids.allowEntry ?? "";
    if (url.includes("/api-keys/")) return ids.apiKey ?? "";
    if (url.includes("/team/members/")) return ids.member ?? "";
    if (url.includes("/team/invites/")) return ids.invite ?? "";
    if (url.includes("/scoring/models/")) return ids.model ?? "";
    if (url.includes("/alerts/")) return ids.alert ?? "";
    return ids.screening ?? "";
  }

  /** A fresh session acting in the owner's account as `role` (logout may end the last one). */
  async function bearerOf(role: Role) {
    const { token } = await t.app.services.sessions.create(members[role].userId, owner.accountId);
    return { authorization: `Bearer ${token}` };
  }

  async function callProcedure(path: string, type: string, headers: Record<string, string>) {
    t.clock.advance(61 * 60_000); // a fresh rate-limit window: a 429 would hide the answer
    const response =
      type === "query"
        ? await fetch(`${t.baseUrl}/trpc/${path}`, { headers })
        : await fetch(`${t.baseUrl}/trpc/${path}`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: "{}",
          });
    return { status: response.status, body: await response.text() };
  }

  /**
   * Calls a route; its path's ids are made up unless `own` names this account's real ones
   * (the role sweep needs none: the gate answers before any id is looked up, and a real id
   * would let an admin remove the viewer halfway through).
   */
  async function callRoute(
    method: string,
    url: string,
    headers: Record<string, string>,
    own = false,
    body = "{}",
  ) {
    t.clock.advance(61 * 60_000);
    const path = url.replace(/:(\w+)/g, () => (own ? idIn(url) : "unknown-id"));
    const controller = new AbortController();
    const response = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: {
        ...headers,
        ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }),
      },
      body: method === "GET" || method === "DELETE" || method === "OPTIONS" ? undefined : body,
      signal: controller.signal,
    });
    // A stream (live pages) answers its headers and stays open: its status is all we need.
    const streaming = response.headers.get("content-type")?.startsWith("text/event-stream");
    const text = streaming ? "" : await response.text();
    controller.abort();
    return { status: response.status, body: text };
  }

  function judge(label: string, need: Need, role: Role, answer: { status: number; body: string }) {
    figures.calls++;
    if (answer.status === 403) figures.refused++;
    const want = expected(need, role);
    const seen = `${label} as ${role} (needs ${need}): ${answer.status} ${answer.body.slice(0, 200)}`;
    if (want === "403") {
      expect(answer.status, seen).toBe(403);
      expect(answer.body, seen).toContain(MESSAGES.forbiddenForRole);
    } else if (want === "401") {
      expect(answer.status, seen).toBe(401);
    } else {
      expect(answer.status, seen).not.toBe(403);
      expect(answer.status, seen).toBeLessThan(500);
    }
  }

  it("names every procedure and REST route in the access table", () => {
    const inTables = new Set(rows.map((r) => `${r.method} ${r.url}`));
    const unnamedProcedures = procedures.filter((p) => !OPERATIONS[p.path]).map((p) => p.path);
    const unknownRoutes = registered
      .filter((r) => r.url.startsWith("/api/") && r.method !== "HEAD")
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !inTables.has(r) && !DIRECT[r] && !NOT_OPERATIONS.has(r));
    expect({ unnamedProcedures, unknownRoutes }).toEqual({
      unnamedProcedures: [],
      unknownRoutes: [],
    });
    expect(Object.keys(DIRECT).sort()).toEqual(["GET /api/audit.csv", "GET /api/live"]);
  });

  it("serves every operation where the table says: a procedure, a route, or both", () => {
    const served = new Set(registered.map((r) => `${r.method} ${r.url}`));
    const paths = new Set(procedures.map((p) => p.path));
    const missing = Object.entries(OPERATIONS).flatMap(([name, operation]) => [
      ...(operation.trpc && !paths.has(name) ? [`tRPC ${name}`] : []),
      ...(!operation.trpc && paths.has(name) ? [`tRPC ${name} (REST only)`] : []),
      ...(operation.rest && !served.has(operation.rest) ? [`${operation.rest} (${name})`] : []),
      ...(!operation.trpc && !operation.rest ? [`${name}: served nowhere`] : []),
    ]);
    expect(missing).toEqual([]);
  });

  it("answers every procedure as the matrix says, for every role", async () => {
    for (const role of ROLES) {
      for (const { path, type } of procedures.filter((p) => !LAST.has(p.path))) {
        const need = (OPERATIONS[path] as { need: Need }).need;
        judge(`tRPC ${path}`, need, role, await callProcedure(path, type, await bearerOf(role)));
      }
    }
  }, 300_000);

  it("answers every REST route as the matrix says, for every role", async () => {
    const routes = [
      ...rows.map((r) => ({ method: r.method, url: r.url, op: r.op })),
      ...Object.entries(DIRECT).map(([route, op]) => {
        const [method = "GET", url = ""] = route.split(" ");
        return { method, url, op };
      }),
    ].filter((r) => r.method !== "OPTIONS" && !LAST.has(`${r.method} ${r.url}`));
    for (const role of ROLES) {
      for (const route of routes) {
        const need = (OPERATIONS[route.op] as { need: Need }).need;
        const answer = await callRoute(route.method, route.url, await bearerOf(role));
        judge(`${route.method} ${route.url}`, need, role, answer);
      }
    }
  }, 300_000);

  it("refuses a member of another account every route that names this account's things (404)", async () => {
    const named = rows.filter(
      (r) => r.url.includes(":") && r.need !== "apiKey" && r.need !== "public",
    );
    expect(named.length).toBeGreaterThan(0);
    const before = await t.prisma.allowEntry.count({ where: { accountId: owner.accountId } });
    const keysBefore = await t.prisma.apiKey.count({
      where: { accountId: owner.accountId, revokedAt: null },
    });
    // A fresh session: each call above moved the clock an hour, past the first one's lifetime.
    const otherUser = await t.prisma.user.findUniqueOrThrow({ where: { email: other.email } });
    const { token } = await t.app.services.sessions.create(otherUser.id, other.accountId);
    const headers = { authorization: `Bearer ${token}` };
    for (const row of named) {
      // A valid body, so the answer is about the id, not the input.
      const body = JSON.stringify(VALID_BODIES[`${row.method} ${row.url}`] ?? {});
      const answer = await callRoute(row.method, row.url, headers, true, body);
      // The other account's owner may do anything in their own account: the id is not there.
      expect(answer.status, `${row.method} ${row.url}: ${answer.body.slice(0, 200)}`).toBe(404);
    }
    expect(await t.prisma.allowEntry.count({ where: { accountId: owner.accountId } })).toBe(before);
    expect(
      await t.prisma.apiKey.count({ where: { accountId: owner.accountId, revokedAt: null } }),
    ).toBe(keysBefore);
  });

  // The rows above are judged through the same matrix the gate reads; these are read off the
  // matrix in docs/team.md by hand, with valid inputs, so a wrong matrix fails too.
  it.each([
    { role: "viewer", method: "GET", url: "/api/rules", status: 200 },
    { role: "viewer", method: "PUT", url: "/api/rules", status: 403 },
    { role: "viewer", method: "POST", url: "/api/allowlist", status: 403 },
    { role: "analyst", method: "POST", url: "/api/allowlist", status: 200 },
    { role: "analyst", method: "POST", url: "/api/api-keys", status: 403 },
    { role: "analyst", method: "POST", url: "/api/team/invites", status: 403 },
    { role: "admin", method: "POST", url: "/api/api-keys", status: 200 },
    { role: "admin", method: "PUT", url: "/api/security", status: 403 },
    { role: "owner", method: "PUT", url: "/api/security", status: 200 },
  ] as const)("lets $role $method $url: $status", async ({ role, method, url, status }) => {
    const bodies: Record<string, unknown> = {
      "POST /api/allowlist": { kind: "email", value: `${role}@allowed.example` },
      "POST /api/api-keys": { name: `${role}'s key` },
      "POST /api/team/invites": { email: "new@sweep.example", role: "viewer" },
      "PUT /api/security": { require_two_factor: false, audit_retention_days: 400 },
      "PUT /api/rules": {},
    };
    const answer = await callRoute(
      method,
      url,
      await bearerOf(role),
      false,
      JSON.stringify(bodies[`${method} ${url}`] ?? {}),
    );
    expect(answer.status, answer.body.slice(0, 300)).toBe(status);
  });

  it("lets every member leave but the last owner, after everything else", async () => {
    // The viewer leaves (a member may always leave)...
    const viewer = await callProcedure("team.leave", "mutation", await bearerOf("viewer"));
    judge("tRPC team.leave", "self", "viewer", viewer);
    expect(viewer.status).toBe(200);
    expect(
      await t.prisma.membership.count({
        where: { accountId: owner.accountId, userId: members.viewer.userId },
      }),
    ).toBe(0);
    // ...the last owner may not, though the gate lets the call in (409, not 403).
    const last = await callProcedure("team.leave", "mutation", await bearerOf("owner"));
    expect(last.status, last.body).toBe(409);
  });
});

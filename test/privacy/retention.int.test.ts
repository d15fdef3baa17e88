/**
 * Data retention a merchant can see and set (GET/PUT /api/retention, retention.get/put), and
 * housekeeping enforcing it per account in bounded batches: rows past an account's retention
 * go (a charge's personal fields and a label's note are cleared, the charge and the label
 * stay; allow-list entries that ended that long ago go), newer ones and other
 * accounts' stay, and nothing raw about the people in the old rows is left in those tables.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RetentionView } from "../../shared/schemas/retention.ts";
import type { Role } from "../../shared/team/roles.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const DAY = 86_400_000;

type ApiError = { error: { code: string; message: string; issues?: { path: string }[] } };

describe.each(DB_KINDS)("data retention (%s)", (kind) => {
  let t: TestApp;
  let owner: Merchant;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signedInMerchant(t, `retention-owner-${kind}@example.com`);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A REST client of a new member of the owner's account with `role`. */
  async function memberAs(role: Role): Promise<TestClient> {
    const person = await signedInMerchant(t, `retention-${role}-${kind}@example.com`);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: person.email } });
    await t.prisma.membership.create({
      data: { accountId: owner.accountId, userId: user.id, role },
    });
    const { token } = await t.app.services.sessions.create(user.id, owner.accountId);
    return new TestClient(t.baseUrl, { authorization: `Bearer ${token}` });
  }

  const byKind = (view: RetentionView) => Object.fromEntries(view.kinds.map((k) => [k.kind, k]));

  it("shows every kind with its default, in the console's order", async () => {
    const got = await owner.api.json<RetentionView>("/api/retention");
    expect(got.status).toBe(200);
    expect(got.body.kinds.map((k) => [k.kind, k.days, k.is_default, k.breaks])).toEqual([
      ["screenings", 90, true, []],
      ["collector_tokens", 1, true, []],
      ["identities", 400, true, []],
      ["webhook_deliveries", 30, true, []],
      ["audit_log", 365, true, []],
      ["charges_personal", 540, true, []],
    ]);
    expect(byKind(got.body).audit_log).toMatchObject({ min: 30, max: 2555, default_days: 365 });
    expect(byKind(got.body).screenings).toMatchObject({ min: 1, max: 3650 });
    expect(byKind(got.body).identities?.holds).toMatch(/digests/);
    // The console reads the same through tRPC.
    const trpc = await owner.browser.query<RetentionView>("retention.get");
    expect(trpc).toMatchObject({ ok: true, data: got.body });
  });

  it("refuses bad days with a 400 naming the field, and anyone but an owner with a 403", async () => {
    for (const [body, field] of [
      [{ screenings: 0 }, "screenings"],
      [{ identities: 3651 }, "identities"],
      [{ audit_log: 29 }, "audit_log"],
      [{ collector_tokens: 1.5 }, "collector_tokens"],
      [{ charges_personal: "540" }, "charges_personal"],
    ] as const) {
      const put = await owner.api.json<ApiError>("/api/retention", { method: "PUT", body });
      expect(put.status, JSON.stringify(body)).toBe(400);
      expect(put.body.error.issues?.map((i) => i.path)).toEqual([field]);
    }
    const trpc = await owner.browser.mutate("retention.put", { webhook_deliveries: -1 });
    expect(trpc).toMatchObject({
      ok: false,
      status: 400,
      error: { data: { issues: [{ path: "webhook_deliveries" }] } },
    });

    for (const role of ["admin", "analyst", "viewer"] as const) {
      const member = await memberAs(role);
      const read = await member.json<RetentionView>("/api/retention");
      expect(read.status, `${role} reads`).toBe(200);
      const put = await member.json("/api/retention", { method: "PUT", body: { screenings: 5 } });
      expect(put.status, `${role} changes`).toBe(403);
    }
    expect(
      byKind((await owner.api.json<RetentionView>("/api/retention")).body).screenings,
    ).toMatchObject({ days: 90, is_default: true });
  });

  it("saves an owner's subset, answers what it breaks, audits it, and puts defaults back", async () => {
    const put = await owner.api.json<RetentionView>("/api/retention", {
      method: "PUT",
      body: { identities: 100, charges_personal: 90, screenings: 30 },
    });
    expect(put.status).toBe(200);
    const kinds = byKind(put.body);
    expect(kinds.screenings).toMatchObject({ days: 30, is_default: false, breaks: [] });
    expect(kinds.identities?.breaks).toContain(
      "rule_ip looks back 365 days: a trial started with the same email, card or device more than 100 days ago will not count.",
    );
    expect(kinds.charges_personal?.breaks).toContain(
      "rule_farming looks back 180 days: refunds and disputes on charges older than 90 days will no longer be found by the email or card.",
    );
    // Kinds not named are kept.
    expect(kinds.audit_log).toMatchObject({ days: 365, is_default: true });

    const event = await t.prisma.auditEvent.findFirstOrThrow({
      where: { accountId: owner.accountId, action: "retention.put" },
    });
    const days = (view: unknown) =>
      Object.fromEntries((view as RetentionView).kinds.map((k) => [k.kind, k.days]));
    expect(days(event.before)).toMatchObject({ identities: 400, screenings: 90 });
    expect(days(event.after)).toMatchObject({ identities: 100, screenings: 30 });

    const back = await owner.api.json<RetentionView>("/api/retention", {
      method: "PUT",
      body: { identities: null, charges_personal: null, screenings: null },
    });
    expect(back.body.kinds.every((k) => k.is_default && k.breaks.length === 0)).toBe(true);
  });

  it("housekeeping removes, per account, exactly what is past each retention", async () => {
    const a = await signedInMerchant(t, `retention-a-${kind}@example.com`);
    const b = await signedInMerchant(t, `retention-b-${kind}@example.com`);
    const set = await a.api.json<RetentionView>("/api/retention", {
      method: "PUT",
      body: {
        screenings: 10,
        collector_tokens: 3,
        identities: 50,
        webhook_deliveries: 5,
        audit_log: 30,
        charges_personal: 20,
      },
    });
    expect(set.status).toBe(200);
    // B keeps the defaults: 90, 1, 400, 30, 365, 540.
    const aRows = await seed(t, a.accountId, "a", [4, 6, 9, 11, 25, 40, 60, 100]);
    const bRows = await seed(t, b.accountId, "b", [4, 6, 9, 11, 25, 40, 60, 100, 500, 600]);

    // Move the clock on by a day: every row is a day older than it was seeded.
    t.clock.advance(DAY);
    try {
      await t.app.services.housekeeping.purgeExpired();
    } finally {
      t.clock.advance(-DAY);
    }
    const ages = (rows: Seeded) => rows.ages;
    // Each kind keeps the rows younger than its retention (ages are as seeded, plus the day).
    expect(await aRows.left()).toEqual({
      screenings: ages(aRows).filter((d) => d + 1 <= 10),
      identities: ages(aRows).filter((d) => d + 1 <= 50),
      tokens: ages(aRows).filter((d) => d + 1 <= 3),
      deliveries: ages(aRows).filter((d) => d + 1 <= 5),
      audit: ages(aRows).filter((d) => d < 30),
      chargesWithEmail: ages(aRows).filter((d) => d + 1 <= 20),
      charges: ages(aRows),
      screeningLabelNotes: ages(aRows).filter((d) => d + 1 <= 10),
      chargeLabelNotes: ages(aRows).filter((d) => d + 1 <= 20),
      labels: ages(aRows).length,
      allowEntries: ages(aRows).filter((d) => d + 1 <= 10),
    });
    expect(await bRows.left()).toEqual({
      screenings: ages(bRows).filter((d) => d + 1 <= 90),
      identities: ages(bRows).filter((d) => d + 1 <= 400),
      tokens: ages(bRows).filter((d) => d + 1 <= 1),
      deliveries: ages(bRows).filter((d) => d + 1 <= 30),
      audit: ages(bRows).filter((d) => d < 365),
      chargesWithEmail: ages(bRows).filter((d) => d + 1 <= 540),
      charges: ages(bRows),
      screeningLabelNotes: ages(bRows).filter((d) => d + 1 <= 90),
      chargeLabelNotes: ages(bRows).filter((d) => d + 1 <= 540),
      labels: ages(bRows).length,
      allowEntries: ages(bRows).filter((d) => d + 1 <= 90),
    });

    // A cleared charge keeps its amounts and outcome.
    const cleared = await t.prisma.transaction.findUniqueOrThrow({
      where: { accountId_chargeId: { accountId: a.accountId, chargeId: "ch_a_25" } },
    });
    expect(cleared).toMatchObject({
      email: null,
      cardFingerprint: null,
      reviewNote: null,
      amount: 2500,
      amountRefunded: 100,
      currency: "usd",
      status: "succeeded",
      outcome: "allowed",
    });

    // Nothing raw about the people in the rows past retention is left in those tables.
    const stored = await everything(t, [a.accountId, b.accountId]);
    for (const age of ages(aRows).filter((d) => d + 1 > 30)) {
      for (const raw of rawOf("a", age)) expect(stored, raw).not.toContain(raw);
    }
    for (const raw of rawOf("a", 4)) expect(stored).toContain(raw);
    for (const raw of rawOf("b", 600)) expect(stored).not.toContain(raw);
  });

  it("removes more than one batch in one run, and a spent budget leaves the rest for the next", async () => {
    const c = await signedInMerchant(t, `retention-c-${kind}@example.com`);
    const ages = Array.from({ length: 11 }, (_, i) => 700 + i);
    const rows = await seed(t, c.accountId, "c", [...ages, 2]);
    // No time at all: one batch per step, then the run stops.
    const first = await t.app.services.housekeeping.purgeExpired({ batch: 4, budgetMs: 0 });
    expect(first).toMatchObject({
      screenings: 4,
      identities: 4,
      collectorTokens: 4,
      webhookDeliveries: 4,
      auditEvents: 4,
      chargesCleared: 4,
      labelNotes: 4,
      allowEntries: 4,
    });
    // The next run goes on until none is left: 11 past retention each (tokens: 12, the
    // two-day-old one too, a day after it expired), more than two batches.
    const all = await t.app.services.housekeeping.purgeExpired({ batch: 4 });
    expect(all).toMatchObject({
      screenings: 7,
      identities: 7,
      collectorTokens: 8,
      webhookDeliveries: 7,
      auditEvents: 7,
      chargesCleared: 7,
      labelNotes: 18,
      allowEntries: 7,
    });
    expect(await rows.left()).toEqual({
      screenings: [2],
      identities: [2],
      tokens: [],
      deliveries: [2],
      audit: [2],
      chargesWithEmail: [2],
      charges: rows.ages,
      screeningLabelNotes: [2],
      chargeLabelNotes: [2],
      labels: 12,
      allowEntries: [2],
    });
  });
});

type Seeded = Awaited<ReturnType<typeof seed>>;

/** The raw values one seeded row holds about its person. */
function rawOf(tag: string, age: number): [string, string, string, string] {
  return [
    `${tag}-${age}@people.example`,
    `user-${tag}-${age}`,
    `device-${tag}-${age}`,
    ipOf(tag, age),
  ];
}

function ipOf(tag: string, age: number) {
  return `198.51.${tag.charCodeAt(0)}.${age % 250}`;
}

/**
 * For each age (days before the test clock's now, or the database's for the audit log): a
 * screening, a counting row, a signal token expired then, a delivered webhook delivery, an
 * audit event and a charge, each holding that person's raw values.
 */
async function seed(t: TestApp, accountId: string, tag: string, ages: number[]) {
  const now = t.clock.now().getTime();
  const at = (age: number) => new Date(now - age * DAY);
  const endpoint = await t.prisma.webhookEndpoint.create({
    data: { accountId, url: "https://hooks.example/warden", events: [], secretCipher: "x" },
  });
  for (const age of ages) {
    const [email, userId, deviceId, ip] = rawOf(tag, age);
    const input = { type: "signup", email, user_id: userId, device_id: deviceId, ip };
    const screening = await t.prisma.screening.create({
      data: {
        accountId,
        createdAt: at(age),
        type: "signup",
        email,
        userId,
        ip,
        decision: "allow",
        score: 0,
        rules: [],
        reasons: [],
        monitored: [],
        input,
        signals: { device_id: deviceId },
      },
    });
    await t.prisma.screeningIdentity.create({
      data: {
        accountId,
        screeningId: screening.id,
        kind: "device",
        value: `digest-${tag}-${age}`,
        type: "signup",
        at: at(age),
        blocked: false,
        keyed: true,
      },
    });
    await t.prisma.signalToken.create({
      data: {
        accountId,
        tokenHash: `token-${tag}-${age}-${accountId}`,
        apiKeyId: "key",
        createdAt: at(age),
        expiresAt: at(age),
        origin: "https://shop.example",
        collectIp: ip,
        signals: { device_id: deviceId },
      },
    });
    await t.prisma.webhookDelivery.create({
      data: {
        accountId,
        endpointId: endpoint.id,
        eventId: `evt_${tag}_${age}`,
        eventType: "screening.decided",
        body: JSON.stringify(input),
        status: age % 2 === 0 ? "delivered" : "failed",
        createdAt: at(age),
        nextAttemptAt: at(age),
      },
    });
    await t.prisma.$executeRaw`
      INSERT INTO "AuditEvent" ("id", "accountId", "at", "actorKind", "actor", "action", "after")
      VALUES (${crypto.randomUUID()}, ${accountId},
              (now() AT TIME ZONE 'UTC') - make_interval(days => ${age}),
              'system', 'test', 'allowList.add', ${JSON.stringify({ value: email })}::jsonb)`;
    await t.prisma.label.create({
      data: {
        accountId,
        subjectKind: "screening",
        subjectId: screening.id,
        label: "fraud",
        source: "person",
        who: "owner@shop.example",
        note: `${userId} farmed trials`,
        createdAt: at(age),
      },
    });
    await t.prisma.label.create({
      data: {
        accountId,
        subjectKind: "charge",
        subjectId: `ch_${tag}_${age}`,
        label: "fraud",
        source: "person",
        who: "owner@shop.example",
        note: `charge ${age} of ${email} disputed`,
        createdAt: at(age),
      },
    });
    // An entry that ended `age` days ago, a week after it was added.
    await t.prisma.allowEntry.create({
      data: {
        accountId,
        kind: "device",
        value: deviceId,
        note: `VIP ${email}`,
        addedBy: "owner@shop.example",
        createdAt: at(age + 7),
        expiresAt: at(age),
      },
    });
    await t.prisma.transaction.create({
      data: {
        accountId,
        chargeId: `ch_${tag}_${age}`,
        hasCharge: true,
        amount: 2500,
        amountRefunded: 100,
        currency: "usd",
        email,
        cardFingerprint: `card-${tag}-${age}`,
        reviewNote: `spoke with ${email}`,
        created: Math.floor(at(age).getTime() / 1000),
        status: "succeeded",
        outcome: "allowed",
      },
    });
  }
  const agesOf = (values: (string | null)[], pattern: RegExp) =>
    values
      .map((value) => Number(pattern.exec(value ?? "")?.[1]))
      .filter((n) => !Number.isNaN(n))
      .sort((x, y) => y - x);
  const order = (list: number[]) => [...list].sort((x, y) => y - x);
  const mine = new RegExp(`^${tag}-(\\d+)@`);
  return {
    ages: order(ages),
    async left() {
      const where = { accountId };
      return {
        screenings: agesOf(
          (await t.prisma.screening.findMany({ where, select: { email: true } })).map(
            (r) => r.email,
          ),
          mine,
        ),
        identities: agesOf(
          (await t.prisma.screeningIdentity.findMany({ where, select: { value: true } })).map(
            (r) => r.value,
          ),
          new RegExp(`^digest-${tag}-(\\d+)$`),
        ),
        tokens: agesOf(
          (await t.prisma.signalToken.findMany({ where, select: { tokenHash: true } })).map(
            (r) => r.tokenHash,
          ),
          new RegExp(`^token-${tag}-(\\d+)-`),
        ),
        deliveries: agesOf(
          (await t.prisma.webhookDelivery.findMany({ where, select: { eventId: true } })).map(
            (r) => r.eventId,
          ),
          new RegExp(`^evt_${tag}_(\\d+)$`),
        ),
        audit: agesOf(
          (
            await t.prisma.auditEvent.findMany({
              where: { accountId, action: "allowList.add" },
              select: { after: true },
            })
          ).map((r) => (r.after as { value?: string } | null)?.value ?? null),
          mine,
        ),
        chargesWithEmail: agesOf(
          (await t.prisma.transaction.findMany({ where, select: { email: true } })).map(
            (r) => r.email,
          ),
          mine,
        ),
        charges: agesOf(
          (await t.prisma.transaction.findMany({ where, select: { chargeId: true } })).map(
            (r) => r.chargeId,
          ),
          new RegExp(`^ch_${tag}_(\\d+)$`),
        ),
        screeningLabelNotes: agesOf(
          (
            await t.prisma.label.findMany({
              where: { accountId, subjectKind: "screening" },
              select: { note: true },
            })
          ).map((r) => r.note),
          new RegExp(`^user-${tag}-(\\d+) `),
        ),
        chargeLabelNotes: agesOf(
          (
            await t.prisma.label.findMany({
              where: { accountId, subjectKind: "charge" },
              select: { note: true },
            })
          ).map((r) => r.note),
          /^charge (\d+) of /,
        ),
        labels: (await t.prisma.label.count({ where })) / 2,
        allowEntries: agesOf(
          (await t.prisma.allowEntry.findMany({ where, select: { value: true } })).map(
            (r) => r.value,
          ),
          new RegExp(`^device-${tag}-(\\d+)$`),
        ),
      };
    },
  };
}

/** Every row of the tables retention empties, for these accounts, as one string. */
async function everything(t: TestApp, accountIds: string[]): Promise<string> {
  const where = { accountId: { in: accountIds } };
  const rows = [
    await t.prisma.screening.findMany({ where }),
    await t.prisma.signalToken.findMany({ where }),
    await t.prisma.webhookDelivery.findMany({ where }),
    await t.prisma.auditEvent.findMany({ where }),
    await t.prisma.transaction.findMany({ where }),
    await t.prisma.label.findMany({ where }),
    await t.prisma.allowEntry.findMany({ where }),
  ];
  return JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? String(value) : value));
}

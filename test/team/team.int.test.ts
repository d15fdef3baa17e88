/**
 * Teammates over real HTTP, on the embedded database and on PostgreSQL: an invitation arrives
 * by email, the invitee (signed up on their own) accepts it and works in both accounts; links
 * that expired, were withdrawn or replaced, or name another email are refused; two accepts at
 * once make one membership; the last owner stays (alone or against a concurrent demotion);
 * admins cannot touch owners; ownership moves; a removed member's session moves on; a member
 * removed, leaving or demoted takes back the invitations their new place may not send; a new
 * role counts from the next request; and the REST routes answer as the procedures do. A person
 * new to Warden joins through the link with a password (no account of their own, no
 * confirmation mail; refused for links closed, for an email with a login, and once of two
 * joins at once); the account's name shows in mails and the switch, never two alike; a login
 * returns to the account last used.
 */
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import type { SessionUser } from "../../shared/schemas/auth.ts";
import type {
  AccountNameView,
  InvitePreview,
  InviteView,
  Joined,
  SecuritySettings,
  TeamView,
} from "../../shared/schemas/team.ts";
import type { Role } from "../../shared/team/roles.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient, type TrpcResult } from "../helpers/http-client.ts";
import { MERCHANT_PASSWORD, type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const BOT = "python-requests/2.31";

type Me = SessionUser | null;

describe.each(DB_KINDS)("teammates (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  let seq = 0;
  /** A fresh signed-in merchant (their own account, as every signup makes). */
  const merchant = (name: string) => {
    // Signups from one address are limited to 10 an hour: let an hour pass now and then.
    if (++seq % 9 === 0) clock.advance(61 * MINUTE);
    return signedInMerchant(t, `${name}-${seq}-${kind}@example.com`);
  };
  const userIdOf = async (m: Merchant) =>
    (await t.prisma.user.findUniqueOrThrow({ where: { email: m.email } })).id;
  const me = async (m: Merchant) => ((await m.browser.query<Me>("auth.me")) as { data: Me }).data;
  const ok = <T>(result: TrpcResult<T>, what: string): T => {
    expect(result, what).toMatchObject({ ok: true });
    return (result as { data: T }).data;
  };

  /** The newest invitation email to `email` after `seen` earlier ones, and its link's token. */
  async function invitationTo(email: string, seen: number, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mails = t.smtp.messages.filter(
        (m) => m.to.includes(email) && m.subject.includes("invited you"),
      );
      if (mails.length > seen) {
        const mail = mails.at(-1) as (typeof mails)[number];
        return { mail, token: linkIn(mail, "/invite").searchParams.get("token") ?? "" };
      }
      if (Date.now() > deadline) throw new Error(`no invitation to ${email}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  /** The status of a REST login (a script's). */
  const loginStatus = async (email: string, password: string) =>
    (await new TestClient(t.baseUrl, {}).json("/api/auth/login", { body: { email, password } }))
      .status;
  const invitationsTo = (email: string) =>
    t.smtp.messages.filter((m) => m.to.includes(email) && m.subject.includes("invited you")).length;

  /** `from` invites `email` as `role`; the emailed link's token. */
  async function invite(from: Merchant, email: string, role: Role) {
    const to = email.toLowerCase();
    const seen = invitationsTo(to);
    const view = ok(
      await from.browser.mutate<InviteView>("team.invite", { email, role }),
      `invite ${email}`,
    );
    return { view, ...(await invitationTo(to, seen)) };
  }

  /** `member` joins `owner`'s account as `role` (their session then acts there). */
  async function join(owner: Merchant, member: Merchant, role: Role) {
    const { token } = await invite(owner, member.email, role);
    ok(await member.browser.mutate<Joined>("team.acceptInvite", { token }), "accept");
    return { token, userId: await userIdOf(member) };
  }

  it("emails an invitation that the invitee accepts; they then work in both accounts", async () => {
    const owner = await merchant("owner");
    const invitee = await merchant("analyst");
    ok(await owner.browser.mutate("allowList.add", { kind: "user_id", value: "owners-vip" }), "a");
    ok(await invitee.browser.mutate("allowList.add", { kind: "user_id", value: "own-vip" }), "b");

    const { view, mail, token } = await invite(owner, invitee.email, "analyst");
    expect(view).toMatchObject({ email: invitee.email, role: "analyst", invited_by: owner.email });
    expect(view).not.toHaveProperty("token");
    expect(mail.subject).toBe(`${owner.email} invited you to ${owner.email} on Warden`);
    expect(mail.text).toContain(`${owner.email} invited you to join ${owner.email}`);
    expect(mail.text).toContain("as Analyst");
    expect(mail.text).toContain(`${t.baseUrl}/invite?token=${token}`);
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    // Only the token's hash is stored.
    const stored = await t.prisma.invite.findFirstOrThrow({ where: { id: view.id } });
    expect(stored.tokenHash).not.toContain(token);
    expect(stored.expiresAt.getTime() - clock.now().getTime()).toBe(7 * DAY);

    // Anyone holding the link sees what it offers, signed in or not.
    const anonymous = new TestClient(t.baseUrl);
    const preview = ok(
      await anonymous.query<InvitePreview>("team.invitePreview", { token }),
      "preview",
    );
    expect(preview).toEqual({
      account_name: owner.email,
      invited_by: owner.email,
      email: invitee.email,
      role: "analyst",
      expires_at: view.expires_at,
      status: "pending",
    });
    const restPreview = await anonymous.json(`/api/invites/${token}`);
    expect(restPreview).toMatchObject({ status: 200, body: preview });

    // The owner's Team page lists it until it is answered.
    const before = ok(await owner.browser.query<TeamView>("team.get"), "team");
    expect(before.invites.map((i) => i.email)).toEqual([invitee.email]);

    const joined = ok(
      await invitee.browser.mutate<Joined>("team.acceptInvite", { token }),
      "accept",
    );
    expect(joined).toEqual({ account_id: owner.accountId, name: owner.email, role: "analyst" });
    // The session acts in the joined account from the next request.
    expect(await me(invitee)).toMatchObject({ accountId: owner.accountId, role: "analyst" });
    const list = ok(await invitee.browser.query<{ value: string }[]>("allowList.list"), "list");
    expect(list.map((e) => e.value)).toEqual(["owners-vip"]);
    // An analyst may not manage the team.
    expect(
      await invitee.browser.mutate("team.invite", { email: "x@example.com", role: "viewer" }),
    ).toMatchObject({ ok: false, status: 403 });

    const team = ok(await owner.browser.query<TeamView>("team.get"), "team");
    expect(team.invites).toEqual([]);
    expect(team.members).toEqual([
      expect.objectContaining({ email: owner.email, role: "owner", you: true, two_factor: false }),
      expect.objectContaining({ email: invitee.email, role: "analyst", you: false }),
    ]);
    const joinedEvent = await t.prisma.auditEvent.findFirst({
      where: { accountId: owner.accountId, action: "team.acceptInvite" },
    });
    expect(joinedEvent).toMatchObject({ actor: invitee.email, target: view.id });

    // Both accounts are in the header's switch; switching back shows their own data.
    const accounts = ok(
      await invitee.browser.query<{ account_id: string; current: boolean }[]>("auth.accounts"),
      "accounts",
    );
    expect(accounts).toEqual([
      expect.objectContaining({ account_id: invitee.accountId, role: "owner", current: false }),
      expect.objectContaining({ account_id: owner.accountId, role: "analyst", current: true }),
    ]);
    ok(
      await invitee.browser.mutate("auth.switchAccount", { account_id: invitee.accountId }),
      "switch",
    );
    expect(await me(invitee)).toMatchObject({ accountId: invitee.accountId, role: "owner" });
    const own = ok(await invitee.browser.query<{ value: string }[]>("allowList.list"), "own");
    expect(own.map((e) => e.value)).toEqual(["own-vip"]);

    // The same link again (a second click) only switches back to the account.
    ok(await invitee.browser.mutate("team.acceptInvite", { token }), "again");
    expect(await me(invitee)).toMatchObject({ accountId: owner.accountId });
    expect(await t.prisma.membership.count({ where: { accountId: owner.accountId } })).toBe(2);
  });

  it("refuses links that expired, were withdrawn or replaced, or name another email", async () => {
    const owner = await merchant("refusing-owner");
    const invitee = await merchant("refused");
    const stranger = await merchant("stranger");
    const accept = (m: Merchant, token: string) =>
      m.browser.mutate<Joined>("team.acceptInvite", { token });

    // Another email: 403, saying to log in with the invited one, without naming it.
    const first = await invite(owner, invitee.email, "viewer");
    const wrong = await accept(stranger, first.token);
    expect(wrong).toMatchObject({ ok: false, status: 403 });
    expect(JSON.stringify(wrong)).toContain(
      `This invitation was sent to another email address: you are signed in as ${stranger.email}.`,
    );
    expect(JSON.stringify(wrong)).not.toContain(invitee.email);

    // Inviting the same email again replaces the invitation: the first link dies.
    const second = await invite(owner, invitee.email.toUpperCase(), "analyst");
    expect(second.token).not.toBe(first.token);
    expect(await accept(invitee, first.token)).toMatchObject({
      ok: false,
      status: 409,
      error: { message: MESSAGES.inviteRevoked },
    });
    const pending = ok(await owner.browser.query<TeamView>("team.get"), "team").invites;
    expect(pending).toEqual([expect.objectContaining({ id: second.view.id, role: "analyst" })]);

    // Withdrawn: 409; another account's invitation id is not found.
    ok(await owner.browser.mutate("team.revokeInvite", { id: second.view.id }), "revoke");
    expect(await accept(invitee, second.token)).toMatchObject({
      ok: false,
      status: 409,
      error: { message: MESSAGES.inviteRevoked },
    });
    const third = await invite(owner, invitee.email, "viewer");
    expect(await stranger.browser.mutate("team.revokeInvite", { id: third.view.id })).toMatchObject(
      { ok: false, status: 404 },
    );

    // Expired: 7 days and a minute later, refused; the preview says so.
    clock.advance(7 * DAY + MINUTE);
    expect(await accept(invitee, third.token)).toMatchObject({
      ok: false,
      status: 409,
      error: { message: MESSAGES.inviteExpired },
    });
    const preview = ok(
      await new TestClient(t.baseUrl).query<InvitePreview>("team.invitePreview", {
        token: third.token,
      }),
      "preview",
    );
    expect(preview.status).toBe("expired");
    // The Team page still shows it, as expired.
    const lapsed = ok(await owner.browser.query<TeamView>("team.get"), "team").invites;
    expect(lapsed).toEqual([expect.objectContaining({ id: third.view.id, expired: true })]);

    // An unknown link, and a member invited again.
    expect(await accept(invitee, "a".repeat(32))).toMatchObject({ ok: false, status: 404 });
    expect(await new TestClient(t.baseUrl).json(`/api/invites/${"b".repeat(32)}`)).toMatchObject({
      status: 404,
    });
    expect(
      await owner.browser.mutate("team.invite", { email: owner.email, role: "viewer" }),
    ).toMatchObject({ ok: false, status: 409, error: { message: MESSAGES.alreadyMember } });
    expect(await t.prisma.membership.count({ where: { accountId: owner.accountId } })).toBe(1);
  });

  it("makes exactly one membership of two accepts at once", async () => {
    const owner = await merchant("race-owner");
    const invitee = await merchant("race-invitee");
    const { token } = await invite(owner, invitee.email, "analyst");
    // The same person in two tabs (two sessions), several clicks each.
    const tab = new TestClient(t.baseUrl);
    ok(
      await tab.mutate("auth.login", { email: invitee.email, password: invitee.password }),
      "login",
    );
    const answers = await Promise.all(
      [invitee.browser, tab, invitee.browser, tab].map((c) =>
        c.mutate("team.acceptInvite", { token }),
      ),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.some((answer) => answer.ok)).toBe(true);
    const userId = await userIdOf(invitee);
    expect(await t.prisma.membership.count({ where: { accountId: owner.accountId, userId } })).toBe(
      1,
    );
    expect(
      await t.prisma.auditEvent.count({
        where: { accountId: owner.accountId, action: "team.acceptInvite" },
      }),
    ).toBe(1);
  });

  it("never leaves an account without an owner, and keeps admins off owners", async () => {
    const owner = await merchant("last-owner");
    const ownerId = await userIdOf(owner);
    const lastOwner = { ok: false, status: 409, error: { message: MESSAGES.lastOwner } };
    expect(await owner.browser.mutate("team.leave")).toMatchObject(lastOwner);
    expect(await owner.browser.mutate("team.remove", { user_id: ownerId })).toMatchObject(
      lastOwner,
    );
    expect(
      await owner.browser.mutate("team.changeRole", { user_id: ownerId, role: "admin" }),
    ).toMatchObject(lastOwner);
    expect(await owner.api.json("/api/team/leave", { body: {} })).toMatchObject({
      status: 409,
      body: { error: { message: MESSAGES.lastOwner } },
    });

    const admin = await merchant("admin");
    const viewer = await merchant("viewer");
    const { userId: adminId } = await join(owner, admin, "admin");
    const { userId: viewerId } = await join(owner, viewer, "viewer");
    const ownerOnly = (message: string) => ({ ok: false, status: 403, error: { message } });
    expect(
      await admin.browser.mutate("team.changeRole", { user_id: ownerId, role: "admin" }),
    ).toMatchObject(ownerOnly(MESSAGES.onlyOwnerChangesOwner));
    expect(await admin.browser.mutate("team.remove", { user_id: ownerId })).toMatchObject(
      ownerOnly(MESSAGES.onlyOwnerChangesOwner),
    );
    expect(
      await admin.browser.mutate("team.changeRole", { user_id: viewerId, role: "owner" }),
    ).toMatchObject(ownerOnly(MESSAGES.onlyOwnerMakesOwner));
    expect(
      await admin.browser.mutate("team.invite", { email: "boss@example.com", role: "owner" }),
    ).toMatchObject(ownerOnly(MESSAGES.onlyOwnerMakesOwner));
    expect(
      await admin.browser.mutate("team.transferOwnership", { user_id: adminId }),
    ).toMatchObject({ ok: false, status: 403 });
    // Below owner, an admin manages the team; a viewer does not.
    expect(
      await admin.browser.mutate("team.changeRole", { user_id: viewerId, role: "analyst" }),
    ).toMatchObject({ ok: true, data: { user_id: viewerId, role: "analyst" } });
    expect(
      await viewer.browser.mutate("team.changeRole", { user_id: adminId, role: "viewer" }),
    ).toMatchObject({ ok: false, status: 403 });
    // An owner may make an admin an owner; then either owner may leave, not both.
    ok(await owner.browser.mutate("team.changeRole", { user_id: adminId, role: "owner" }), "up");
    ok(await admin.browser.mutate("team.leave"), "the second owner leaves");
    expect(await owner.browser.mutate("team.leave")).toMatchObject(lastOwner);
    expect(await me(admin)).toMatchObject({ accountId: admin.accountId, role: "owner" });
  });

  it("keeps one owner when two owners demote, remove or leave each other at once", async () => {
    const a = await merchant("owner-a");
    const b = await merchant("owner-b");
    const aId = await userIdOf(a);
    // Each has an account besides the shared one, to move to when they are out of it.
    await join(await merchant("elsewhere"), a, "viewer");
    ok(await a.browser.mutate("auth.switchAccount", { account_id: a.accountId }), "a home");
    const { userId: bId } = await join(a, b, "owner");
    const owners = () =>
      t.prisma.membership.count({ where: { accountId: a.accountId, role: "owner" } });
    const moves = [
      (x: Merchant, otherId: string) =>
        x.browser.mutate("team.changeRole", { user_id: otherId, role: "admin" }),
      (x: Merchant, otherId: string) => x.browser.mutate("team.remove", { user_id: otherId }),
      (x: Merchant) => x.browser.mutate("team.leave"),
    ];
    for (let round = 0; round < 9; round++) {
      const move = moves[round % moves.length] as (x: Merchant, id: string) => Promise<TrpcResult>;
      const answers = await Promise.all([move(a, bId), move(b, aId)]);
      expect(answers.filter((answer) => answer.ok).length, `round ${round}`).toBe(1);
      // The loser is refused: its role is gone (403), the last owner stays (409), or its
      // session already moved to another account, where the other is not found (404).
      for (const answer of answers) expect([200, 403, 404, 409]).toContain(answer.status);
      expect(await owners(), `round ${round}`).toBe(1);
      // Back to two owners for the next round: the one still owner brings the other back.
      const aOwns = await t.prisma.membership.count({
        where: { accountId: a.accountId, userId: aId, role: "owner" },
      });
      const [stays, other, otherId] = aOwns ? [a, b, bId] : [b, a, aId];
      const inAccount = await t.prisma.membership.count({
        where: { accountId: a.accountId, userId: otherId },
      });
      if (inAccount) {
        ok(
          await stays.browser.mutate("team.changeRole", { user_id: otherId, role: "owner" }),
          "up",
        );
      } else {
        // Past the hourly limit of invitations to one address.
        clock.advance(61 * MINUTE);
        await join(stays, other, "owner");
      }
      ok(await a.browser.mutate("auth.switchAccount", { account_id: a.accountId }), "a back");
      ok(await b.browser.mutate("auth.switchAccount", { account_id: a.accountId }), "b back");
      expect(await owners()).toBe(2);
    }
  });

  it("transfers ownership: the member becomes the owner and the owner an admin", async () => {
    const owner = await merchant("handing-owner");
    const heir = await merchant("heir");
    const ownerId = await userIdOf(owner);
    const { userId: heirId } = await join(owner, heir, "analyst");
    expect(
      await owner.browser.mutate("team.transferOwnership", { user_id: ownerId }),
    ).toMatchObject({ ok: false, status: 409, error: { message: MESSAGES.transferToSelf } });
    expect(
      await owner.browser.mutate("team.transferOwnership", { user_id: crypto.randomUUID() }),
    ).toMatchObject({ ok: false, status: 404 });
    expect(
      await owner.browser.mutate("team.transferOwnership", { user_id: "no-such-user" }),
    ).toMatchObject({ ok: false, status: 400, error: { message: "user_id: must be a UUID" } });
    // Someone in another account is not found either.
    const outsider = await merchant("outsider");
    expect(
      await owner.browser.mutate("team.transferOwnership", { user_id: await userIdOf(outsider) }),
    ).toMatchObject({ ok: false, status: 404 });

    const moved = await owner.api.json("/api/team/transfer", { body: { user_id: heirId } });
    expect(moved).toMatchObject({ status: 200, body: { ok: true } });
    expect(await me(heir)).toMatchObject({ accountId: owner.accountId, role: "owner" });
    expect(await me(owner)).toMatchObject({ accountId: owner.accountId, role: "admin" });
    const roles = ok(await heir.browser.query<TeamView>("team.get"), "team").members.map((m) => [
      m.email,
      m.role,
    ]);
    expect(roles).toEqual([
      [owner.email, "admin"],
      [heir.email, "owner"],
    ]);
    // The former owner cannot take it back; the new one is the last owner now.
    expect(
      await owner.browser.mutate("team.transferOwnership", { user_id: ownerId }),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await heir.browser.mutate("team.leave")).toMatchObject({
      ok: false,
      status: 409,
      error: { message: MESSAGES.lastOwner },
    });
  });

  it("moves a removed member's session to their own account, or signs them out", async () => {
    const owner = await merchant("removing-owner");
    const member = await merchant("removed");
    const { userId } = await join(owner, member, "viewer");
    expect(await me(member)).toMatchObject({ accountId: owner.accountId });
    const gone = await owner.api.json(`/api/team/members/${userId}`, { method: "DELETE" });
    expect(gone.status).toBe(204);
    // No session of theirs acts in the account any more, even before its next request.
    expect(await t.prisma.session.count({ where: { userId, accountId: owner.accountId } })).toBe(0);
    expect(await me(member)).toMatchObject({ accountId: member.accountId, role: "owner" });
    expect(
      await owner.browser.mutate("team.remove", { user_id: userId }),
      "a second removal",
    ).toMatchObject({ ok: false, status: 404 });

    // A person whose only account was the one they are removed from is signed out.
    const loner = await merchant("loner");
    const lonerId = await userIdOf(loner);
    await join(owner, loner, "viewer");
    // Their own account gets a second owner, who takes them out of it.
    ok(await loner.browser.mutate("auth.switchAccount", { account_id: loner.accountId }), "own");
    await join(loner, owner, "owner");
    expect(await me(owner)).toMatchObject({ accountId: loner.accountId, role: "owner" });
    ok(await owner.browser.mutate("team.remove", { user_id: lonerId }), "out of their own");
    ok(await owner.browser.mutate("auth.switchAccount", { account_id: owner.accountId }), "back");
    expect(await me(loner)).toMatchObject({ accountId: owner.accountId, role: "viewer" });
    ok(await owner.browser.mutate("team.remove", { user_id: lonerId }), "out of the last one");
    expect(await me(loner)).toBeNull();
    expect(await loner.browser.query("team.get")).toMatchObject({ ok: false, status: 401 });
  });

  it("revokes a member's invitations when they are removed, leave, or lose the role that sent them", async () => {
    const owner = await merchant("revoking-owner");
    const admin = await merchant("inviting-admin");
    const leaver = await merchant("leaving-admin");
    const heir = await merchant("next-owner");
    const { userId: adminId } = await join(owner, admin, "admin");
    await join(owner, leaver, "admin");
    const { userId: heirId } = await join(owner, heir, "viewer");
    // People with Warden logins of their own, each invited once below.
    const demoted = await merchant("demoted");
    const removed = await merchant("removed");
    const left = await merchant("left");
    const coOwner = await merchant("co-owner");
    const kept = await merchant("kept");
    const owners = await merchant("owners");
    const accept = (m: Merchant, token: string) =>
      m.browser.mutate<Joined>("team.acceptInvite", { token });
    const revoked = { ok: false, status: 409, error: { message: MESSAGES.inviteRevoked } };
    const pending = async () =>
      ok(await owner.browser.query<TeamView>("team.get"), "team")
        .invites.map((i) => i.email)
        .sort();

    // Demoted to analyst, who may not invite: every invitation the admin sent dies.
    const byAdmin = await invite(admin, demoted.email, "viewer");
    const byOwner = await invite(owner, owners.email, "analyst");
    ok(await owner.browser.mutate("team.changeRole", { user_id: adminId, role: "analyst" }), "d");
    expect(await pending()).toEqual([owners.email]);
    expect(await accept(demoted, byAdmin.token)).toMatchObject(revoked);

    // Removed (over REST): the same. Made an admin again first, they invite once more.
    ok(await owner.browser.mutate("team.changeRole", { user_id: adminId, role: "admin" }), "up");
    const beforeRemoval = await invite(admin, removed.email, "analyst");
    const removal = await owner.api.json(`/api/team/members/${adminId}`, { method: "DELETE" });
    expect(removal.status).toBe(204);
    expect(await accept(removed, beforeRemoval.token)).toMatchObject(revoked);

    // Leaving: the same.
    const beforeLeaving = await invite(leaver, left.email, "viewer");
    ok(await leaver.browser.mutate("team.leave"), "leave");
    expect(await accept(left, beforeLeaving.token)).toMatchObject(revoked);

    // Handing ownership over makes the owner an admin, who may not invite owners: their owner
    // invitation dies; their admin invitation stays, as do everyone else's.
    const asOwner = await invite(owner, coOwner.email, "owner");
    const asAdmin = await invite(owner, kept.email, "admin");
    ok(await owner.browser.mutate("team.transferOwnership", { user_id: heirId }), "transfer");
    expect(await pending()).toEqual([kept.email, owners.email].sort());
    expect(await accept(coOwner, asOwner.token)).toMatchObject(revoked);
    expect(await accept(kept, asAdmin.token)).toMatchObject({
      ok: true,
      data: { account_id: owner.accountId, role: "admin" },
    });
    expect(await accept(owners, byOwner.token)).toMatchObject({ ok: true });

    // An invitation from an admin demoted before demotions revoked anything (written here as
    // that code left it: the role changed, the invitation still pending) is refused when used.
    // The former owner is an admin now, and invites once more.
    const stale = await merchant("stale");
    const fromStale = await invite(owner, stale.email, "analyst");
    await t.prisma.membership.update({
      where: { accountId_userId: { accountId: owner.accountId, userId: await userIdOf(owner) } },
      data: { role: "viewer" },
    });
    expect(await accept(stale, fromStale.token)).toMatchObject(revoked);
    expect(
      await t.prisma.membership.count({
        where: { accountId: owner.accountId, user: { email: stale.email } },
      }),
    ).toBe(0);
  });

  it("applies a new role from the next request: a viewer made analyst settles a review", async () => {
    const owner = await merchant("reviews-owner");
    const backend = await backendOf(t, owner);
    await turnOn(owner, "rule_scraping");
    const answer = await backend.decide({ type: "request", user_agent: BOT });
    expect(answer.decision).toBe("review");
    const member = await merchant("promoted");
    const { userId } = await join(owner, member, "viewer");
    const settle = () =>
      member.browser.mutate("review.settle", { id: answer.id, decision: "approve" });
    expect(await settle()).toMatchObject({ ok: false, status: 403 });
    const changed = await owner.api.json(`/api/team/members/${userId}`, {
      method: "PUT",
      body: { role: "analyst" },
    });
    expect(changed).toMatchObject({ status: 200, body: { user_id: userId, role: "analyst" } });
    expect(await settle()).toMatchObject({ ok: true, data: { review: { by: member.email } } });
  });

  it("limits invitations: 50 pending per account, and hourly per account and per email", async () => {
    const owner = await merchant("inviting-owner");
    const send = (email: string) => owner.browser.mutate("team.invite", { email, role: "viewer" });
    // The same address at most 3 times an hour.
    for (let i = 0; i < 3; i++) ok(await send("same@example.com"), `same ${i}`);
    expect(await send("same@example.com")).toMatchObject({
      ok: false,
      status: 429,
      error: { message: MESSAGES.tooManyInvites },
    });
    // 30 an hour from one account (4 spent above, the refused one too).
    for (let i = 0; i < 26; i++) ok(await send(`bulk-${i}@example.com`), `bulk ${i}`);
    expect(await send("one-more@example.com")).toMatchObject({ ok: false, status: 429 });
    // An hour later, more; but never more than 50 waiting at once (27 now).
    clock.advance(61 * MINUTE);
    for (let i = 0; i < 23; i++) ok(await send(`later-${i}@example.com`), `later ${i}`);
    expect(await send("fifty-first@example.com")).toMatchObject({
      ok: false,
      status: 409,
      error: { message: MESSAGES.tooManyPendingInvites },
    });
    // Withdrawing one makes room.
    const team = ok(await owner.browser.query<TeamView>("team.get"), "team");
    expect(team.invites).toHaveLength(50);
    ok(await owner.browser.mutate("team.revokeInvite", { id: team.invites[0]?.id }), "revoke");
    ok(await send("fifty-first@example.com"), "room again");
    // Every invitation is emailed (the last one queued is the last one sent): later tests'
    // emails do not wait behind these.
    await invitationTo("fifty-first@example.com", 0, 30_000);
  });

  it("answers over REST as the procedures do, with 400s that name the field", async () => {
    const owner = await merchant("rest-owner");
    const bad = await owner.api.json<{ error: { issues: { path: string }[] } }>(
      "/api/team/invites",
      { body: { email: "not an email", role: "boss" } },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((issue) => issue.path).sort()).toEqual(["email", "role"]);

    const created = await owner.api.json<InviteView>("/api/team/invites", {
      body: { email: "rest-invitee@example.com", role: "admin" },
    });
    expect(created).toMatchObject({ status: 200, body: { role: "admin" } });
    const listed = await owner.api.json<TeamView>("/api/team");
    expect(listed.body.invites.map((i) => i.id)).toEqual([created.body.id]);
    const revoked = await owner.api.json(`/api/team/invites/${created.body.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect(
      (await owner.api.json(`/api/team/invites/${created.body.id}`, { method: "DELETE" })).status,
    ).toBe(404);
    expect(
      (
        await owner.api.json(`/api/team/members/${"x".repeat(36)}`, {
          method: "PUT",
          body: { role: "owner", extra: 1 },
        })
      ).status,
    ).toBe(400);

    // Accepting over REST with a bearer token points that session at the account.
    const invitee = await merchant("rest-joiner");
    const { token } = await invite(owner, invitee.email, "viewer");
    const accepted = await invitee.api.json("/api/team/invites/accept", { body: { token } });
    expect(accepted).toMatchObject({ status: 200, body: { account_id: owner.accountId } });
    expect((await invitee.api.json<{ user: Me }>("/api/me")).body.user).toMatchObject({
      accountId: owner.accountId,
      role: "viewer",
    });
    expect(await new TestClient(t.baseUrl, {}).json("/api/team")).toMatchObject({ status: 401 });
  });

  it("lets an owner, and only an owner, change the security settings", async () => {
    const owner = await merchant("secure-owner");
    const admin = await merchant("secure-admin");
    await join(owner, admin, "admin");
    const defaults = ok(await admin.browser.query<SecuritySettings>("security.get"), "get");
    expect(defaults).toEqual({ require_two_factor: false, audit_retention_days: 365 });
    const wanted = { require_two_factor: false, audit_retention_days: 90 };
    expect(await admin.browser.mutate("security.put", wanted)).toMatchObject({
      ok: false,
      status: 403,
    });
    const tooShort = await owner.api.json<{ error: { issues: { path: string }[] } }>(
      "/api/security",
      { method: "PUT", body: { ...wanted, audit_retention_days: 10 } },
    );
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.issues[0]?.path).toBe("audit_retention_days");
    expect(await owner.api.json("/api/security", { method: "PUT", body: wanted })).toMatchObject({
      status: 200,
      body: wanted,
    });
    expect(await admin.browser.query("security.get")).toMatchObject({ ok: true, data: wanted });
    // Requiring two-factor: a member without it may do nothing in the account until they set it up.
    ok(
      await owner.browser.mutate("security.put", { ...wanted, require_two_factor: true }),
      "require",
    );
    expect(await admin.browser.query("team.get")).toMatchObject({
      ok: false,
      status: 403,
      error: { message: MESSAGES.twoFactorRequiredByAccount },
    });
  });
  it("lets a person new to Warden join through the link with a password, at once and only there", async () => {
    const owner = await merchant("naming-owner");
    // The owner names the account; the mail, the preview and the switch say it.
    const named = ok(
      await owner.browser.mutate<AccountNameView>("team.renameAccount", { name: "  Acme Shop " }),
      "rename",
    );
    expect(named).toEqual({ name: "Acme Shop", shown: "Acme Shop" });
    expect(await owner.api.json("/api/team/name")).toMatchObject({ status: 200, body: named });
    const tooLong = await owner.browser.mutate("team.renameAccount", { name: "A".repeat(101) });
    expect(tooLong).toMatchObject({ ok: false, status: 400 });
    expect(JSON.stringify(tooLong)).toContain("name");

    const email = `newcomer-${kind}@example.com`;
    const accountsBefore = await t.prisma.account.count();
    const { mail, token, view } = await invite(owner, email, "analyst");
    expect(mail.subject).toBe(`${owner.email} invited you to Acme Shop on Warden`);
    expect(mail.text).toContain(
      `${owner.email} invited you to join Acme Shop on Warden as Analyst`,
    );
    expect(mail.text).toContain("New to Warden? Choose a password on that page and you are in");

    // Password rules hold: a 400 naming the field, and nothing made.
    const newcomer = new TestClient(t.baseUrl);
    const short = await newcomer.mutate("team.joinInvite", { token, password: "short" });
    expect(short).toMatchObject({ ok: false, status: 400 });
    if (!short.ok) expect(short.error.data.issues?.map((i) => i.path)).toEqual(["password"]);
    expect(await t.prisma.user.count({ where: { email } })).toBe(0);

    const joined = ok(
      await newcomer.mutate<Joined>("team.joinInvite", { token, password: "newcomer password" }),
      "join",
    );
    expect(joined).toEqual({ account_id: owner.accountId, name: "Acme Shop", role: "analyst" });
    // Signed in at once, in the inviting account, with no account of their own.
    expect(await me({ browser: newcomer } as Merchant)).toMatchObject({
      email,
      accountId: owner.accountId,
      role: "analyst",
    });
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user.emailConfirmedAt).not.toBeNull();
    expect(user.accountId).toBe(owner.accountId);
    expect(await t.prisma.account.count()).toBe(accountsBefore);
    expect(await t.prisma.membership.findMany({ where: { userId: user.id } })).toEqual([
      expect.objectContaining({ accountId: owner.accountId, role: "analyst" }),
    ]);
    const choices = ok(
      await newcomer.query<{ name: string; role: Role }[]>("auth.accounts"),
      "accounts",
    );
    expect(choices).toEqual([expect.objectContaining({ name: "Acme Shop", role: "analyst" })]);
    // No confirmation mail: the invitation proved the address.
    expect(t.smtp.messages.filter((m) => m.to.includes(email)).map((m) => m.subject)).toEqual([
      mail.subject,
    ]);
    const event = await t.prisma.auditEvent.findFirst({
      where: { accountId: owner.accountId, action: "team.acceptInvite", target: view.id },
    });
    expect(event).toMatchObject({ actor: email });

    // The link is spent; the password logs in (over the API too) to the same account.
    expect(
      await new TestClient(t.baseUrl).mutate("team.joinInvite", { token, password: "other pass" }),
    ).toMatchObject({ ok: false, status: 409, error: { message: MESSAGES.inviteUsed } });
    const login = await new TestClient(t.baseUrl, {}).json<{ user: { accountId: string } }>(
      "/api/auth/login",
      { body: { email, password: "newcomer password" } },
    );
    expect(login).toMatchObject({ status: 200, body: { user: { accountId: owner.accountId } } });

    // Removed from their only account they cannot log in; a new invitation lets them back in
    // with a new password (the invitation proves the email, as a reset link would).
    ok(await owner.browser.mutate("team.remove", { user_id: user.id }), "remove");
    expect(await loginStatus(email, "newcomer password")).toBe(403);
    const again = await invite(owner, email, "viewer");
    ok(
      await new TestClient(t.baseUrl).mutate("team.joinInvite", {
        token: again.token,
        password: "second password",
      }),
      "rejoin",
    );
    // Sessions from before the new password ended: the one the join started is left.
    expect(await t.prisma.session.count({ where: { userId: user.id } })).toBe(1);
    expect(await loginStatus(email, "newcomer password")).toBe(401);
    expect(await loginStatus(email, "second password")).toBe(200);

    // Sign-up asks the account's name too (optional; trimmed; bounded).
    clock.advance(61 * MINUTE); // past the hourly sign-up limit the merchants above used
    const signup = new TestClient(t.baseUrl);
    const signupEmail = `named-signup-${kind}@example.com`;
    ok(
      await signup.mutate("auth.signup", {
        email: signupEmail,
        password: MERCHANT_PASSWORD,
        account_name: " Bo's Shop ",
      }),
      "signup",
    );
    const signedUp = await t.prisma.user.findUniqueOrThrow({
      where: { email: signupEmail },
      include: { account: true },
    });
    expect(signedUp.account.name).toBe("Bo's Shop");
    expect(
      await signup.mutate("auth.signup", {
        email: `other-${signupEmail}`,
        password: MERCHANT_PASSWORD,
        account_name: "B".repeat(101),
      }),
    ).toMatchObject({ ok: false, status: 400 });
  });

  it("gives an invitee an account of their own when they ask, and acts there", async () => {
    const owner = await merchant("own-account-owner");
    const email = `own-account-${kind}@example.com`;
    const { token } = await invite(owner, email, "viewer");
    const invitee = new TestClient(t.baseUrl);
    ok(await invitee.mutate("team.joinInvite", { token, password: "invitee password" }), "join");

    // A name it can store, or a 400 naming the field; nothing made.
    const accountsBefore = await t.prisma.account.count();
    for (const name of ["", "   ", "A".repeat(101), "a\u0000b"]) {
      const refused = await invitee.mutate("auth.createAccount", { name });
      expect(refused, JSON.stringify(name)).toMatchObject({ ok: false, status: 400 });
      if (!refused.ok) expect(refused.error.data.issues?.map((i) => i.path)).toEqual(["name"]);
    }
    expect(await t.prisma.account.count()).toBe(accountsBefore);
    expect(
      await new TestClient(t.baseUrl).mutate("auth.createAccount", { name: "Anon" }),
    ).toMatchObject({ ok: false, status: 401 });

    const created = ok(
      await invitee.mutate<{ account_id: string }>("auth.createAccount", { name: " Side App " }),
      "create",
    );
    // They own it, this session acts there, the invited account is still theirs to switch to.
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user.lastAccountId).toBe(created.account_id);
    expect(await me({ browser: invitee } as Merchant)).toMatchObject({
      accountId: created.account_id,
      role: "owner",
    });
    const choices = ok(
      await invitee.query<{ name: string; role: Role; current: boolean }[]>("auth.accounts"),
      "accounts",
    );
    expect(
      choices
        .map(({ name, role, current }) => ({ name, role, current }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: owner.email, role: "viewer", current: false },
      { name: "Side App", role: "owner", current: true },
    ]);
    // Written in the new account, not in the one they were invited to.
    const written = await t.prisma.auditEvent.findMany({ where: { action: "auth.createAccount" } });
    expect(written.filter((e) => e.actor === email)).toEqual([
      expect.objectContaining({ accountId: created.account_id, targetLabel: "Side App" }),
    ]);
    // Bounded per person: five a day.
    for (let i = 2; i <= 5; i++) {
      ok(await invitee.mutate("auth.createAccount", { name: `App ${i}` }), `create ${i}`);
    }
    expect(await invitee.mutate("auth.createAccount", { name: "App 6" })).toMatchObject({
      ok: false,
      status: 429,
    });
    expect(await t.prisma.membership.count({ where: { userId: user.id, role: "owner" } })).toBe(5);
  });

  it("refuses joins through links expired, withdrawn or used, or for an email with a login", async () => {
    const owner = await merchant("join-owner");
    const existing = await merchant("join-existing");
    const join = (token: string, password = "a fine password") =>
      new TestClient(t.baseUrl).mutate<Joined>("team.joinInvite", { token, password });
    const refused = (message: string) => ({ ok: false, status: 409, error: { message } });

    // An email with a login: they log in and accept; the invitation stays open for that.
    const forExisting = await invite(owner, existing.email, "viewer");
    expect(await join(forExisting.token)).toMatchObject(refused(MESSAGES.inviteHasLogin));
    ok(await existing.browser.mutate("team.acceptInvite", { token: forExisting.token }), "accept");
    expect(await loginStatus(existing.email, existing.password)).toBe(200);

    // Withdrawn, unknown, expired.
    const withdrawn = await invite(owner, `withdrawn-${kind}@example.com`, "viewer");
    ok(await owner.browser.mutate("team.revokeInvite", { id: withdrawn.view.id }), "revoke");
    expect(await join(withdrawn.token)).toMatchObject(refused(MESSAGES.inviteRevoked));
    expect(await join("c".repeat(32))).toMatchObject({ ok: false, status: 404 });
    const lapsing = await invite(owner, `lapsing-${kind}@example.com`, "viewer");
    clock.advance(7 * DAY + MINUTE);
    expect(await join(lapsing.token)).toMatchObject(refused(MESSAGES.inviteExpired));
    expect(await t.prisma.user.count({ where: { email: `lapsing-${kind}@example.com` } })).toBe(0);

    // Two joins at once (a double click, two tabs): one user, one membership, one event.
    const racing = `racing-${kind}@example.com`;
    const raced = await invite(owner, racing, "analyst");
    const answers = await Promise.all([1, 2, 3, 4].map(() => join(raced.token)));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !a.ok)) {
      expect(answer).toMatchObject(refused(MESSAGES.inviteUsed));
    }
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: racing } });
    expect(await t.prisma.membership.count({ where: { userId: user.id } })).toBe(1);
    expect(
      await t.prisma.auditEvent.count({
        where: { action: "team.acceptInvite", target: raced.view.id },
      }),
    ).toBe(1);

    // A sign-up never confirmed: the invitation confirms it, and its password is the new one.
    clock.advance(61 * MINUTE); // past the hourly sign-up limit
    const pending = `unconfirmed-${kind}@example.com`;
    ok(
      await new TestClient(t.baseUrl).mutate("auth.signup", {
        email: pending,
        password: "first password",
      }),
      "signup",
    );
    const confirmLink = linkIn(await t.smtp.waitFor(pending, "Confirm"), "/confirm-email");
    const forPending = await invite(owner, pending, "viewer");
    ok(await join(forPending.token, "chosen password"), "join unconfirmed");
    expect(await loginStatus(pending, "first password")).toBe(401);
    expect(await loginStatus(pending, "chosen password")).toBe(200);
    expect(
      await new TestClient(t.baseUrl).mutate("auth.confirmEmail", {
        tokenHash: confirmLink.searchParams.get("tokenHash"),
        email: pending,
      }),
    ).toMatchObject({ ok: false, status: 400 });
  });

  it("logs in to the account last used while the person is still a member there", async () => {
    const owner = await merchant("last-used-owner");
    const member = await merchant("last-used-member");
    const { userId } = await join(owner, member, "analyst");
    const loggedInto = async () => {
      const answer = await new TestClient(t.baseUrl, {}).json<{ user: { accountId: string } }>(
        "/api/auth/login",
        { body: { email: member.email, password: member.password } },
      );
      expect(answer.status).toBe(200);
      return answer.body.user.accountId;
    };
    // Joined last: a login (the API's too) acts there, not in their own account.
    expect(await loggedInto()).toBe(owner.accountId);
    ok(await member.browser.mutate("auth.switchAccount", { account_id: member.accountId }), "own");
    expect(await loggedInto()).toBe(member.accountId);
    ok(await member.browser.mutate("auth.switchAccount", { account_id: owner.accountId }), "back");
    expect(await loggedInto()).toBe(owner.accountId);
    // Removed from the account last used: the old rule (the one they signed up with).
    ok(await owner.browser.mutate("team.remove", { user_id: userId }), "remove");
    expect(await loggedInto()).toBe(member.accountId);
  });

  it("never shows two accounts alike in the switch, even after ownership moves", async () => {
    const owner = await merchant("alike-owner");
    const ana = await merchant("alike-ana");
    const { userId } = await join(owner, ana, "admin");
    ok(await owner.browser.mutate("team.transferOwnership", { user_id: userId }), "transfer");
    // Both accounts are now first owned by Ana, and neither has a name.
    const choices = ok(
      await ana.browser.query<{ account_id: string; name: string; role: Role }[]>("auth.accounts"),
      "accounts",
    );
    expect(choices.map((c) => c.role)).toEqual(["owner", "owner"]);
    const labels = choices.map((c) => `${c.name} (${c.role})`);
    expect(new Set(labels).size).toBe(2);
    for (const c of choices) expect(c.name).toContain(ana.email);
    // Named, each reads as its name.
    ok(await ana.browser.mutate("team.renameAccount", { name: "Lead's shop" }), "rename");
    const renamed = ok(
      await ana.browser.query<{ account_id: string; name: string }[]>("auth.accounts"),
      "renamed",
    );
    expect(renamed.find((c) => c.account_id === owner.accountId)?.name).toBe("Lead's shop");
    expect(renamed.find((c) => c.account_id === ana.accountId)?.name).toBe(ana.email);
  });
});

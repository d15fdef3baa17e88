/**
 * The only code that touches the database for alerts: the alerts an account set, the
 * compare-and-set that lets one instance fire or resolve one, its event with the email and
 * the webhook event it stages (one transaction), and what measuring reads outside the rollups.
 */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";

export type AlertRow = Prisma.AlertRuleGetPayload<object>;
export type AlertEventRow = Prisma.AlertEventGetPayload<object>;
export type AlertData = Omit<Prisma.AlertRuleUncheckedCreateInput, "id" | "accountId">;
/** What an event of an alert records beside the alert, its kind and time. */
export type EventData = Omit<
  Prisma.AlertEventUncheckedCreateInput,
  "accountId" | "alertId" | "alertName" | "kind" | "at"
>;

export function createAlertsRepository(prisma: PrismaClient) {
  return {
    list(accountId: string) {
      return prisma.alertRule.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
    },

    find(accountId: string, id: string) {
      return prisma.alertRule.findFirst({ where: { accountId, id } });
    },

    /** Creates the alert unless the account has `max` already (counted in the transaction). */
    create(accountId: string, data: AlertData, max: number) {
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`alerts:${accountId}`}))`;
        if ((await tx.alertRule.count({ where: { accountId } })) >= max) return null;
        return tx.alertRule.create({ data: { ...data, accountId } });
      });
    },

    /** Replaces what the alert watches; a change resets it to not firing. Null: no such alert. */
    async update(accountId: string, id: string, data: AlertData) {
      const { count } = await prisma.alertRule.updateMany({
        where: { accountId, id },
        data: { ...data, firing: false },
      });
      return count === 0 ? null : prisma.alertRule.findFirst({ where: { accountId, id } });
    },

    async remove(accountId: string, id: string) {
      const { count } = await prisma.alertRule.deleteMany({ where: { accountId, id } });
      return count > 0;
    },

    /** Accounts with at least one alert on. */
    async accountsWithAlerts(): Promise<string[]> {
      const rows = await prisma.alertRule.findMany({
        where: { enabled: true },
        distinct: ["accountId"],
        select: { accountId: true },
      });
      return rows.map((r) => r.accountId);
    },

    enabled(accountId: string) {
      return prisma.alertRule.findMany({ where: { accountId, enabled: true } });
    },

    /**
     * Fires the alert if it is not firing and its cool-down since it last fired has passed,
     * and stores its event, its emails and its webhook event with it: all or nothing, and only
     * the instance whose compare-and-set wins. The event, or null when another fired it or it
     * is cooling down.
     */
    fire(alert: AlertRow, at: Date, event: EventData, deliver: Deliveries) {
      const cooled = new Date(at.getTime() - alert.cooldownMinutes * 60_000);
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.alertRule.updateMany({
          where: {
            id: alert.id,
            enabled: true,
            firing: false,
            OR: [{ lastFiredAt: null }, { lastFiredAt: { lte: cooled } }],
          },
          data: { firing: true, lastFiredAt: at },
        });
        if (count === 0) return null;
        return record(tx, alert, "fired", at, event, deliver);
      });
    },

    /** Resolves the alert if it is firing, with its event; null when it was not firing. */
    resolve(alert: AlertRow, at: Date, event: EventData, deliver: Deliveries) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.alertRule.updateMany({
          where: { id: alert.id, firing: true },
          data: { firing: false },
        });
        if (count === 0) return null;
        return record(tx, alert, "resolved", at, event, deliver);
      });
    },

    /** A test of the alert's channels: its event, emails and webhook event. */
    test(alert: AlertRow, at: Date, event: EventData, deliver: Deliveries) {
      return prisma.$transaction((tx) => record(tx, alert, "test", at, event, deliver));
    },

    setDelivered(id: string, delivered: Record<string, string>) {
      return prisma.alertEvent.update({ where: { id }, data: { delivered } });
    },

    events(accountId: string, limit: number) {
      return prisma.alertEvent.findMany({
        where: { accountId },
        orderBy: [{ at: "desc" }, { id: "desc" }],
        take: limit,
      });
    },

    /** The emails of the account's owners and admins, who are told. */
    async recipients(accountId: string): Promise<string[]> {
      const rows = await prisma.membership.findMany({
        where: { accountId, role: { in: ["owner", "admin"] } },
        select: { user: { select: { email: true } } },
        orderBy: { createdAt: "asc" },
      });
      return rows.map((r) => r.user.email);
    },

    async oldestOpenReview(accountId: string): Promise<Date | null> {
      const row = await prisma.screening.findFirst({
        where: { accountId, decision: "review", reviewStatus: null },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { createdAt: true },
      });
      return row?.createdAt ?? null;
    },

    async longestFailingEndpoint(accountId: string) {
      const row = await prisma.webhookEndpoint.findFirst({
        where: { accountId, failingSince: { not: null } },
        orderBy: { failingSince: "asc" },
        select: { url: true, failingSince: true },
      });
      return row?.failingSince ? { url: row.url, since: row.failingSince } : null;
    },
  };
}

/** What an event stages in its transaction: emails to send, webhook events to deliver. */
export type Deliveries = {
  emails: readonly { to: string; subject: string; text: string }[];
  events: readonly DecisionEvent[];
  outbox: Pick<EventOutbox, "stage">;
};

async function record(
  tx: Prisma.TransactionClient,
  alert: AlertRow,
  kind: "fired" | "resolved" | "test",
  at: Date,
  event: EventData,
  deliver: Deliveries,
) {
  const row = await tx.alertEvent.create({
    data: {
      ...event,
      accountId: alert.accountId,
      alertId: alert.id,
      alertName: alert.name,
      kind,
      at,
    },
  });
  for (const mail of deliver.emails) {
    await tx.outboxEmail.create({ data: { ...mail, nextAttemptAt: at, createdAt: at } });
  }
  if (deliver.events.length > 0) await deliver.outbox.stage(tx, alert.accountId, deliver.events);
  return row;
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;

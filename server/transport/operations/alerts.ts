/**
 * Alerts a merchant sets (issue 45): roles as for configuration (anyone reads, configure
 * changes), every change audited, a Slack URL masked in the audit and never sent back.
 */
import { z } from "zod";
import {
  ZAlertEvents,
  ZAlertEventView,
  ZAlertInput,
  ZAlertRef,
  ZAlertUpdate,
  ZAlertView,
} from "../../../shared/schemas/alerts.ts";
import { uuidString } from "../../../shared/schemas/storable.ts";
import { byId, op } from "../operation.ts";

const ZIdParams = z.strictObject({ id: uuidString() });

export const alerts = {
  list: op({
    need: "read",
    kind: "query",
    output: z.array(ZAlertView),
    handler: ({ services, caller }) => services.alerts.list(caller.accountId),
    rest: {
      method: "GET",
      path: "/alerts",
      tag: "alerts",
      summary: "The alerts set on this account",
    },
  }),
  create: op({
    need: "configure",
    audit: true,
    kind: "mutation",
    input: ZAlertInput,
    output: ZAlertView,
    handler: ({ services, caller }, input) => services.alerts.create(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/alerts",
      tag: "alerts",
      summary: "Set an alert on a series: a threshold, or a spike against its baseline",
      examples: {
        body: {
          name: "Signups from one network",
          metric: "series_spike",
          mode: "spike",
          series: "signup_network",
          window_minutes: 15,
          slack_url: "https://hooks.slack.com/services/T000/B000/XXXX",
        },
      },
    },
  }),
  update: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZAlertUpdate,
    output: ZAlertView,
    handler: ({ services, caller }, input) =>
      services.alerts.update(caller.accountId, input.id, input.alert),
    rest: {
      method: "PUT",
      path: "/alerts/:id",
      tag: "alerts",
      summary: "Replace an alert's settings (a slack_url left out keeps the stored one)",
      params: ZIdParams,
      body: ZAlertInput,
      input: ({ params, body }) => ({ id: params.id, alert: body }),
      errors: [404],
    },
  }),
  remove: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZAlertRef,
    handler: ({ services, caller }, input) => services.alerts.remove(caller.accountId, input.id),
    rest: {
      method: "DELETE",
      path: "/alerts/:id",
      tag: "alerts",
      summary: "Remove an alert (its past events stay)",
      response: null,
      errors: [404],
    },
  }),
  test: op({
    need: "configure",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZAlertRef,
    output: ZAlertEventView,
    handler: ({ services, caller }, input) => services.alerts.test(caller.accountId, input.id),
    rest: {
      method: "POST",
      path: "/alerts/:id/test",
      tag: "alerts",
      summary: "Send a test message of the alert by email and to Slack",
      errors: [404],
    },
  }),
  events: op({
    need: "read",
    kind: "query",
    output: ZAlertEvents,
    handler: ({ services, caller }) => services.alerts.events(caller.accountId),
    rest: {
      method: "GET",
      path: "/alerts/events",
      tag: "alerts",
      summary: "The latest 100 alert events (fired, resolved, tests), each with its chart",
    },
  }),
};

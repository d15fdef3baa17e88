/**
 * rule_farming: at signup, block when the device or card already has N accounts (distinct
 * user id or normalized email) in the window; at checkout, review when the email or card had
 * N refunds, or any dispute, in Warden's Stripe records of the refund window.
 */
import type { Rule } from "../types.ts";

export const farming: Rule = {
  key: "rule_farming",
  appliesTo: ["event"],
  check(subject, policy, features) {
    if (subject.kind !== "event") return null;
    const s = policy.settings.rule_farming;
    if (subject.type === "signup" && s.accounts && features.counts) {
      const on = features.counts.accountsOn;
      for (const identity of ["device", "card"] as const) {
        const value = identity === "device" ? subject.deviceId : subject.cardFingerprint;
        if (value && on[identity] >= s.max_accounts) {
          return {
            message: `this ${identity} already has ${on[identity]} accounts in ${s.window_days} days (limit ${s.max_accounts})`,
            observed: on[identity] + 1,
            limit: s.max_accounts,
          };
        }
      }
    }
    const history = features.stripeHistory;
    if (subject.type === "checkout" && s.refunds && history) {
      if (history.disputes > 0) {
        return {
          message: `this email or card had ${history.disputes} dispute(s) in ${s.refund_window_days} days`,
          observed: history.disputes,
          limit: 0,
          review: true,
        };
      }
      if (history.refunds >= s.refund_limit) {
        return {
          message: `this email or card had ${history.refunds} refunds in ${s.refund_window_days} days (limit ${s.refund_limit - 1})`,
          observed: history.refunds,
          limit: s.refund_limit - 1,
          review: true,
        };
      }
    }
    return null;
  },
};

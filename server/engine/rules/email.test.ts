import { describe, expect, it } from "vitest";
import { charge, features, policy } from "../../../test/fixtures/engine.ts";
import { email } from "./email.ts";

describe("rule_email", () => {
  it.each([
    { address: "jane@example.com", providers: [], disposable: [], message: null },
    {
      address: "ivan@mail.ru",
      providers: ["mail.ru"],
      disposable: [],
      message: "email provider mail.ru is blocked",
    },
    {
      address: "Ivan@MAIL.RU",
      providers: ["mail.ru"],
      disposable: [],
      message: "email provider mail.ru is blocked",
    },
    {
      address: "x@mailinator.com",
      providers: [],
      disposable: ["mailinator.com"],
      message: "disposable email domain mailinator.com",
    },
    { address: "no-at-sign", providers: ["no-at-sign"], disposable: [], message: null },
    { address: null, providers: [], disposable: [], message: null },
    { address: "jane@", providers: [], disposable: [], message: null },
  ])("$address → $message", ({ address, providers, disposable, message }) => {
    const finding = email.check(
      charge({ email: address }),
      policy({}, { email_providers: providers }),
      features(disposable),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});

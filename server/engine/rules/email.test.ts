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
      message: "disposable email domain mailinator.com (on the disposable-domain list)",
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

describe("rule_email and privacy relays", () => {
  it.each(["privaterelay.appleid.com", "mozmail.com", "duck.com", "simplelogin.com"])(
    "privacy_relay_email: %s is never disposable, even on a list",
    (domain) => {
      const finding = email.check(
        charge({ email: `q7kx2mvprw@${domain}` }),
        policy(),
        features([domain]),
      );
      expect(finding).toBeNull();
    },
  );

  it("a relay the merchant blocks by name is still blocked", () => {
    const finding = email.check(
      charge({ email: "abc@duck.com" }),
      policy({}, { email_providers: ["duck.com"] }),
      features(),
    );
    expect(finding?.message).toBe("email provider duck.com is blocked");
  });
});

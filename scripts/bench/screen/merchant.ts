/** The merchant bench:screen screens for: every rule and two templates on, an API key. */
import { call, signUpMerchant } from "../../lib/bench-process.ts";
import { SHOP } from "../../lib/end-users.ts";
import { turnAllRulesOn } from "../warden.ts";

const PASSWORD = "bench screen password";

/** Sets the merchant up over HTTP; returns its API key. */
export async function setUpMerchant(base: string, dataDir: string): Promise<string> {
  const token = await signUpMerchant(base, dataDir, PASSWORD);
  await turnAllRulesOn(base, token);
  const templates = await call<Record<string, boolean>>(base, "/api/templates", { token });
  await call(base, "/api/templates", {
    method: "PUT",
    token,
    body: {
      ...templates,
      template_one_human_one_trial: true,
      template_account_farm_shield: true,
    },
  });
  await allowShop(base, token);
  const on = await call<Record<string, unknown>>(base, "/api/rules", { token });
  const off = Object.entries(on).filter(([k, v]) => k.startsWith("rule_") && v !== true);
  if (off.length > 0) throw new Error(`rules still off: ${off.map(([k]) => k).join(", ")}`);
  return await apiKey(base, token);
}

/**
 * The "six templates" merchant (bench:compare): every template on and rule_email on,
 * the other rules as a new account has them, the shop's origin allowed; returns its API key.
 */
export async function setUpSixTemplatesMerchant(base: string, dataDir: string): Promise<string> {
  const token = await signUpMerchant(base, dataDir, PASSWORD);
  const templates = await call<Record<string, boolean>>(base, "/api/templates", { token });
  const allOn = Object.fromEntries(Object.keys(templates).map((key) => [key, true]));
  await call(base, "/api/templates", { method: "PUT", token, body: allOn });
  const rules = await call<Record<string, unknown>>(base, "/api/rules", { token });
  await call(base, "/api/rules", { method: "PUT", token, body: { ...rules, rule_email: true } });
  await allowShop(base, token);
  return await apiKey(base, token);
}

/**
 * Allows the shop's origin: Settings → API keys (PUT /api/allowed-origins), or on a server
 * from before that page (it answers 404) the referrer rule's settings, where they were.
 */
async function allowShop(base: string, token: string): Promise<void> {
  try {
    await call(base, "/api/allowed-origins", { method: "PUT", token, body: { origins: [SHOP] } });
  } catch (error) {
    if (!(error as Error).message.includes("HTTP 404")) throw error;
    await call(base, "/api/rule-settings", {
      method: "PUT",
      token,
      body: { rule_referrer_mismatch: { allowed_origins: [SHOP] } },
    });
  }
}

async function apiKey(base: string, token: string): Promise<string> {
  const { key } = await call<{ key: string }>(base, "/api/api-keys", {
    token,
    body: { name: "bench" },
  });
  return key;
}

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
  await call(base, "/api/allowed-origins", { method: "PUT", token, body: { origins: [SHOP] } });
  const on = await call<Record<string, unknown>>(base, "/api/rules", { token });
  const off = Object.entries(on).filter(([k, v]) => k.startsWith("rule_") && v !== true);
  if (off.length > 0) throw new Error(`rules still off: ${off.map(([k]) => k).join(", ")}`);
  const { key } = await call<{ key: string }>(base, "/api/api-keys", {
    token,
    body: { name: "bench" },
  });
  return key;
}

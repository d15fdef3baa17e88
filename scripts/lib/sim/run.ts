/**
 * One simulation: the traffic built once from the seed, then for each configuration a new
 * merchant with its templates (or every rule), the traffic played in time order, the figures.
 */
import { TEMPLATE_KEYS } from "../../../shared/schemas/templates.ts";
import { drive } from "./driver.ts";
import { HOUR, type SimEvent } from "./journey.ts";
import { buildTraffic, type MixOptions, POPULATIONS } from "./mix.ts";
import { type ConfigurationFigures, figuresOf } from "./report.ts";
import { type Api, type Configuration, setUpMerchant, type Warden } from "./warden.ts";
import { dayFiguresOf, type FiredAlert } from "./week.ts";

/**
 * --template: a template key, `all` (every template at once), `rules` (every rule), `each`
 * (every template alone, then every rule), `everything` (every rule and every template), or
 * several of these separated by commas.
 */
export function configurationsOf(template: string): Configuration[] {
  if (template.includes(",")) return template.split(",").flatMap(configurationsOf);
  const one = (key: string): Configuration => ({ name: key, templates: [key], allRules: false });
  if (template === "each")
    return [...TEMPLATE_KEYS.map(one), { name: "all_rules", templates: [], allRules: true }];
  if (template === "all")
    return [{ name: "all_templates", templates: [...TEMPLATE_KEYS], allRules: false }];
  if (template === "rules") return [{ name: "all_rules", templates: [], allRules: true }];
  if (template === "everything")
    return [{ name: "all_rules_and_templates", templates: [...TEMPLATE_KEYS], allRules: true }];
  if (!(TEMPLATE_KEYS as readonly string[]).includes(template))
    throw new Error(
      `--template: ${template} is not a template key, all, rules, each or everything`,
    );
  return [one(template)];
}

/** The attacks a configuration is meant to stop: those aimed at by its templates; all of them for every rule. */
export function targetsOf(config: Configuration): string[] {
  return POPULATIONS.filter(
    (p) =>
      p.attack &&
      (config.allRules ||
        config.templates.length === TEMPLATE_KEYS.length ||
        p.targetedBy?.some((t) => config.templates.includes(t))),
  ).map((p) => p.name);
}

/** How far before the hour the traffic starts (its early events), in ms: 0 when it has none. */
export const leadOf = (traffic: readonly SimEvent[]) => Math.max(0, -(traffic[0]?.at ?? 0));

/**
 * The traffic played once in one configuration: a new merchant, set up a minute before the
 * traffic's first event (the day before the hour when it has early events), the figures.
 * The `i`th configuration of a run starts a day after the last one's traffic ended (counts are
 * per account anyway, but the clock never goes back).
 */
export async function playConfiguration(
  warden: Warden,
  mix: MixOptions,
  traffic: readonly SimEvent[],
  config: Configuration,
  i: number,
  progress: (done: number, total: number) => void = () => {},
): Promise<ConfigurationFigures> {
  const hours = mix.days ? mix.days * 24 : mix.hours;
  warden.clock.set(warden.clock.now() + (i === 0 ? 0 : hours * HOUR + 24 * HOUR));
  // The label goes into the merchant's email: a candidate's name may hold `=` or `.`.
  const label = `${config.name}-${i}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const merchant = await setUpMerchant(warden, config, label);
  const start = warden.clock.now() + leadOf(traffic) + 60_000;
  // A week measures the merchant's alerts every simulated minute with traffic, as the server would.
  const alerts = mix.days ? warden.evaluateAlerts : undefined;
  const outcomes = await drive(
    warden,
    merchant,
    traffic,
    start,
    (done) => progress(done, traffic.length),
    alerts,
  );
  const figures = figuresOf(config.name, outcomes, targetsOf(config));
  if (!mix.days) return figures;
  const fired = alerts ? await alertsFired(merchant.api, start) : undefined;
  return { ...figures, days: dayFiguresOf(outcomes, mix.days, fired) };
}

/** The merchant's alerts that fired, in ms of simulated time from the traffic's start. */
async function alertsFired(api: Api, start: number): Promise<FiredAlert[]> {
  const { events } = await api<{
    events: { kind: string; at: string; alert_name: string; message: string }[];
  }>("/api/alerts/events");
  return events
    .filter((e) => e.kind === "fired")
    .map((e) => ({ at: Date.parse(e.at) - start, name: e.alert_name, message: e.message }))
    .sort((a, b) => a.at - b.at);
}

export async function simulate(
  warden: Warden,
  mix: MixOptions,
  configs: readonly Configuration[],
  progress: (config: string, done: number, total: number) => void = () => {},
): Promise<ConfigurationFigures[]> {
  const traffic = buildTraffic(mix);
  const figures: ConfigurationFigures[] = [];
  for (const [i, config] of configs.entries()) {
    figures.push(
      await playConfiguration(warden, mix, traffic, config, i, (done, total) =>
        progress(config.name, done, total),
      ),
    );
  }
  return figures;
}

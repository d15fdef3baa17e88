/** Browser tests run against the built client, built once per run. */
import { build } from "vite";

export default async function setup() {
  await build({ configFile: "vite.config.ts", logLevel: "warn" });
}

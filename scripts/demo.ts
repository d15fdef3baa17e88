/**
 * `npm run demo -- --url <webhook url> --secret <whsec_…>` sends the sample bundle, signed,
 * to a running Warden's webhook URL (Settings shows both), as Stripe would deliver it.
 */
import { sendDemoEvents } from "../server/modules/demo/demo.service.ts";
import { flags, progressBar } from "./lib/progress.ts";

const args = flags();
const url = args.url ?? process.env.WARDEN_WEBHOOK_URL;
const secret = args.secret ?? process.env.WARDEN_WEBHOOK_SECRET;
if (!url || !secret) {
  console.error(
    "usage: npm run demo -- --url <Stripe Webhook URL from Settings> --secret <its whsec_ signing secret>\n" +
      "(or set WARDEN_WEBHOOK_URL and WARDEN_WEBHOOK_SECRET; the dashboard's 'Load demo data' button needs neither)",
  );
  process.exit(1);
}
const bar = progressBar("Sending demo events");
try {
  const result = await sendDemoEvents({
    url,
    secret,
    onProgress: (done, total) => bar.update((done / total) * 100, `${done}/${total}`),
  });
  if (result.failed.length > 0) {
    bar.done(
      `${result.sent} accepted, ${result.failed.length} refused (first: HTTP ${result.failed[0]?.status}). Check the URL and secret.`,
    );
    process.exit(1);
  }
  bar.done(`Sent ${result.sent} events. Open the dashboard to see them.`);
} catch (error) {
  bar.done(`Could not reach ${url}: ${(error as Error).message}`);
  process.exit(1);
}

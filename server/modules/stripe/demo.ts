/**
 * Sends the sample bundle (sample-events.ts) to a Warden webhook URL, signed with the
 * endpoint's secret, exactly as Stripe would deliver it. Used by `npm run demo` and by the
 * "Load demo data" button of an empty local dashboard.
 */
import Stripe from "stripe";
import { demoEvents } from "./sample-events.ts";

const signer = new Stripe("sk_signing_only", { telemetry: false });

export type DemoResult = { sent: number; failed: { eventId: string; status: number }[] };

export async function sendDemoEvents(options: {
  url: string;
  secret: string;
  now?: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<DemoResult> {
  const events = demoEvents(options.now);
  const failed: DemoResult["failed"] = [];
  let done = 0;
  for (const event of events) {
    const payload = JSON.stringify(event);
    const response = await fetch(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signer.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret,
        }),
      },
      body: payload,
    });
    await response.arrayBuffer();
    if (!response.ok) failed.push({ eventId: event.id, status: response.status });
    options.onProgress?.(++done, events.length);
  }
  return { sent: events.length - failed.length, failed };
}

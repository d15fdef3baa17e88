/**
 * A describe block's test app: started before its tests, handed to `use` (the block's `let t`),
 * closed after them. One place for the beforeAll/afterAll pair the integration files repeated.
 */
import { afterAll, beforeAll } from "vitest";
import type { DbKind } from "./helpers/databases.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";
import { startWebhookReceiver } from "./helpers/webhook-receiver.ts";

export function withTestApp(
  kind: DbKind,
  options: Parameters<typeof startTestApp>[1],
  use: (app: TestApp) => void,
): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(kind, options);
    use(app);
  });
  afterAll(async () => {
    await app?.close();
  });
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * withTestApp with a webhook receiver beside it, started after the app and closed after it; the
 * app may post to private addresses (the receiver's) unless `options` say otherwise.
 */
export function withTestAppAndReceiver(
  kind: DbKind,
  use: (app: TestApp, receiver: WebhookReceiver) => void,
  options: Parameters<typeof startTestApp>[1] = { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } },
): void {
  let app: TestApp | undefined;
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    app = await startTestApp(kind, options);
    receiver = await startWebhookReceiver();
    use(app, receiver);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });
}

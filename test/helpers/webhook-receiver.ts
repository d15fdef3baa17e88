/** A merchant's webhook endpoint for tests: records every delivery, answers a set status. */
import { createServer } from "node:http";

export type Received = { headers: Record<string, string | string[] | undefined>; body: string };

export async function startWebhookReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const events = () =>
    received.map(
      (r) =>
        JSON.parse(r.body) as {
          id: string;
          type: string;
          created: number;
          data: Record<string, unknown>;
        },
    );
  return {
    url: `http://127.0.0.1:${port}/hooks/warden`,
    received,
    /** Events received so far, parsed, in the order they arrived. */
    events,
    /**
     * The types received so far, sorted: deliveries are concurrent and at-least-once, so
     * (as with Stripe's) arrival order is not promised and a test must not depend on it.
     */
    types: () =>
      events()
        .map((e) => e.type)
        .sort(),
    /** The one event of this type received so far. */
    ofType: (type: string) => events().find((e) => e.type === type),
    answer(code: number) {
      status = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An example merchant backend: one page with a signup form and a "Start trial" button. Before
 * it lets either happen it asks Warden (warden/client), passing the browser's warden.js token
 * and what it knows itself: the email, the caller's IP, a device cookie. It shows Warden's
 * decision and reasons; a real app would create the account or start the trial on "allow".
 *
 *   WARDEN_SECRET_KEY=wdn_sk_… WARDEN_PUBLISHABLE_KEY=wdn_pk_… npx tsx examples/merchant-app/server.ts
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createWardenClient, type ScreenInput } from "warden/client";

export type MerchantAppOptions = {
  wardenUrl: string;
  secretKey: string;
  publishableKey: string;
};

const PAGE = readFileSync(join(import.meta.dirname, "page.html"), "utf8");
const MAX_BODY = 16 * 1024;

export function createMerchantApp({ wardenUrl, secretKey, publishableKey }: MerchantAppOptions) {
  const warden = createWardenClient({ url: wardenUrl, apiKey: secretKey, timeoutMs: 1000 });
  const page = PAGE.replaceAll("{{WARDEN_URL}}", wardenUrl).replaceAll(
    "{{WARDEN_PUBLISHABLE_KEY}}",
    publishableKey,
  );

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const device = deviceOf(request) ?? randomUUID();
    if (request.method === "GET" && request.url === "/") {
      response.setHeader(
        "set-cookie",
        `device=${device}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`,
      );
      return send(response, 200, "text/html; charset=utf-8", page);
    }
    const type = { "/signup": "signup", "/trial": "trial_start" }[request.url ?? ""];
    if (request.method !== "POST" || !type) return send(response, 404, "text/plain", "Not found");
    const body = await readJson(request);
    if (!body) return send(response, 413, "text/plain", "Too large");
    const email = typeof body.email === "string" ? body.email.trim() : "";
    if (!email) return send(response, 400, "application/json", '{"error":"email is required"}');
    const answer = await warden.screen({
      type: type as ScreenInput["type"],
      email,
      user_id: email,
      ip: ipOf(request),
      user_agent: request.headers["user-agent"],
      device_id: device,
      timezone: typeof body.timezone === "string" ? body.timezone : undefined,
      signals: typeof body.token === "string" && body.token ? body.token : undefined,
    });
    // Here: on "allow" create the account or start the trial; on "review" hold it for a look.
    return send(response, 200, "application/json", JSON.stringify(answer));
  }

  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A WardenError here is a bug in this app (a bad field or key): say so, loudly.
      console.error(error);
      if (!response.headersSent) send(response, 500, "text/plain", "Something went wrong");
    });
  });
}

function send(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, { "content-type": type }).end(body);
}

function deviceOf(request: IncomingMessage): string | undefined {
  return /(?:^|;\s*)device=([0-9a-f-]{36})/.exec(request.headers.cookie ?? "")?.[1];
}

function ipOf(request: IncomingMessage): string | undefined {
  return request.socket.remoteAddress?.replace(/^::ffff:/, "");
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  let text = "";
  for await (const chunk of request) {
    text += chunk;
    if (text.length > MAX_BODY) return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secretKey = process.env.WARDEN_SECRET_KEY;
  const publishableKey = process.env.WARDEN_PUBLISHABLE_KEY;
  if (!secretKey || !publishableKey) {
    console.error("Set WARDEN_SECRET_KEY (wdn_sk_…) and WARDEN_PUBLISHABLE_KEY (wdn_pk_…).");
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 4000);
  const app: Server = createMerchantApp({
    wardenUrl: process.env.WARDEN_URL ?? "http://localhost:3000",
    secretKey,
    publishableKey,
  });
  app.listen(port, () => console.log(`Acme Notes on http://localhost:${port}`));
}

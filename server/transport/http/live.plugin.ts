/**
 * GET /api/live: server-sent events for the console's live pages. A signed-in member (cookie
 * or bearer session, let in by the one gate, transport/access.ts) gets `event: change` with
 * `{"topic":"screenings"|"charges"|"review"}` whenever that part of their active account
 * changes (modules/live), a comment every 20 s so proxies keep the connection, and a `retry:`
 * hint. The stream ends when the page goes away, when its session would no longer be let in
 * here (logged out, out of the account, two-factor now required, the account deleted: the
 * live service reads the sessions again each second), and when the server closes: its
 * preClose hook ends every stream first, so app.close() does not wait on them.
 *
 * It answers only a request that accepts text/event-stream (as EventSource sends): anything
 * else reading it as an ordinary GET would wait forever for the body to end.
 */
import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { MESSAGES } from "../../../shared/messages.ts";
import type { LiveTopic } from "../../../shared/schemas/live.ts";
import { AppError } from "../../lib/app-error.ts";
import { sessionCaller } from "../../lib/caller.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import { admit } from "../access.ts";
import { DIRECT } from "../operations/index.ts";

/** A comment this often keeps idle proxies and load balancers from closing the stream. */
const HEARTBEAT_MS = 20_000;
/** How long EventSource waits before it reconnects by itself (the console backs off itself). */
const RETRY_MS = 2_000;

const changeEvent = (topic: LiveTopic) => `event: change\ndata: ${JSON.stringify({ topic })}\n\n`;

export async function livePlugin(app: FastifyInstance, { services }: { services: Services }) {
  app.addHook("preClose", async () => services.live.close());

  // No HEAD twin: a stream's headers alone say nothing.
  app.get("/api/live", { exposeHeadRoute: false }, async (request, reply) => {
    const call = { services, caller: request.caller, session: request.session, ip: request.ip };
    const caller = admit(DIRECT["live.stream"], call);
    const session = request.session;
    if (!caller || !session) throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
    if (!/\btext\/event-stream\b/i.test(request.headers.accept ?? "")) {
      throw new AppError(
        "BAD_REQUEST",
        "This is a stream of server-sent events: send Accept: text/event-stream, as EventSource does.",
      );
    }
    const body = new PassThrough();
    const write = (text: string) => {
      if (body.writable) body.write(text);
    };
    // The same gate, asked again with the session as it stands: in this account still, and
    // let in as this request was.
    const allows = (now: ValidSession | null) => {
      if (now?.user.accountId !== caller.accountId) return false;
      try {
        return (
          admit(DIRECT["live.stream"], { ...call, caller: sessionCaller(now), session: now }) !==
          null
        );
      } catch {
        return false;
      }
    };
    const remove = services.live.open(
      { accountId: caller.accountId, userId: session.user.id, sessionId: session.id },
      {
        send: (topic) => write(changeEvent(topic)),
        end: () => {
          if (body.writable) body.end();
        },
        allows,
      },
    );
    const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
    heartbeat.unref();
    // Ended by us, or destroyed by Fastify when the page went away.
    body.once("close", () => {
      clearInterval(heartbeat);
      remove();
    });
    // Something written at once sends the headers: the page knows it is connected.
    write(`retry: ${RETRY_MS}\n: connected\n\n`);
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-store")
      .header("x-accel-buffering", "no")
      .send(body);
  });
}

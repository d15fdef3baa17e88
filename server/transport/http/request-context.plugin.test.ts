/**
 * Every line a request causes carries its id, whichever logger writes it: the app's logger in
 * a hook, in a handler after a body was read, and in work the handler left running; the
 * request's own logger writes the id once; a line outside any request has none. Over a real
 * socket, with a body read in many chunks after the hooks ran (the chunks come from the
 * connection, not from the request).
 */
import { Writable } from "node:stream";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggerOptions, requestLogger } from "../../lib/logger.ts";
import { requestContextPlugin } from "./request-context.plugin.ts";

type Line = { msg: string; reqId?: string };

describe("request context", () => {
  let app: FastifyInstance;
  let out = "";
  const lines = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
  const find = (msg: string) => lines().filter((line) => line.msg === msg);

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    // The app's logger and request loggers (app.ts).
    app = Fastify({
      logger: await loggerOptions({ level: "info", format: "json", stream }),
      childLoggerFactory: requestLogger,
    });
    await app.register(requestContextPlugin);
    app.addHook("onRequest", async () => app.log.info("hook"));
    app.post("/echo", async (request) => {
      app.log.info("handler");
      request.log.info("own logger");
      request.log.child({ part: "x" }).info("own child");
      request.log.info({ password: "hunter2", body: { email: "bob@example.com" } }, "own secret");
      setTimeout(() => app.log.info("later"), 5);
      return request.body;
    });
    app.get("/quiet", { logLevel: "warn" }, async (request, reply) => {
      request.log.info("quiet info");
      request.log.warn("quiet warn");
      reply.header("x-id", request.id);
      return {};
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => app.close());

  it("stamps the request's id on the app logger's lines, before and after the body, and later", async () => {
    const { port } = app.server.address() as { port: number };
    // A small body, and one read in many chunks from the socket after the hooks have run.
    for (const a of ["small", "x".repeat(600_000)]) {
      const response = await fetch(`http://127.0.0.1:${port}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ a }),
      });
      expect(response.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ids = find("request completed").map((line) => line.reqId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const msg of ["hook", "handler", "own logger", "own child", "later"]) {
      expect(
        find(msg).map((line) => line.reqId),
        msg,
      ).toEqual(ids);
    }
  });

  it("writes the id once on the request's own lines", () => {
    const raw = out.split("\n").find((line) => line.includes('"own logger"')) ?? "";
    expect(raw.match(/"reqId"/g)).toHaveLength(1);
  });

  it("still censors what the request's own logger writes", () => {
    const raw = out.split("\n").find((line) => line.includes('"own secret"')) ?? "";
    expect(JSON.parse(raw)).toMatchObject({
      password: "[redacted]",
      body: { email: "b***@example.com" },
    });
    expect(raw).not.toMatch(/hunter2|bob@/);
  });

  it("gives a route with a log level of its own a request logger at that level", async () => {
    const { port } = app.server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/quiet`);
    expect(response.status).toBe(200);
    expect(find("quiet info")).toHaveLength(0);
    expect(find("quiet warn").map((line) => line.reqId)).toEqual([response.headers.get("x-id")]);
  });

  it("leaves lines outside any request without one", () => {
    app.log.info("outside");
    expect(find("outside")).toHaveLength(1);
    expect(find("outside")[0]).not.toHaveProperty("reqId");
  });
});

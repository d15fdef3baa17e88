/**
 * A server-sent events reader for tests: opens GET /api/live over real HTTP, on a connection
 * of its own (node:http without an agent: fetch's pool opened a spare connection after an
 * abort, which then held the server's close open until its headers timeout), records each
 * event with when it came, and closes like a page that goes away. The browser tests use
 * EventSource.
 */
import http from "node:http";

export type StreamEvent = { event: string; data: string; at: number };

export type OpenStream = Awaited<ReturnType<typeof openLiveStream>>;

/** Parses one event block ("field: value" lines); null for a comment-only block. */
function parseBlock(block: string): Omit<StreamEvent, "at"> | null {
  const fields: Record<string, string> = {};
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
  }
  return fields.data === undefined ? null : { event: fields.event ?? "message", data: fields.data };
}

export async function openLiveStream(
  baseUrl: string,
  headers: Record<string, string> = {},
  accept = "text/event-stream",
) {
  const request = http.get(`${baseUrl}/api/live`, {
    agent: false,
    headers: { accept, ...headers },
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
  });
  request.on("error", () => {});
  response.setEncoding("utf8");
  const events: StreamEvent[] = [];
  let text = "";
  let buffer = "";
  let ended = false;
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      ended = true;
      resolve();
    };
    response.once("end", finish);
    response.once("close", finish);
    response.once("error", finish);
  });
  response.on("data", (part: string) => {
    text += part;
    buffer += part;
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const parsed = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (parsed) events.push({ ...parsed, at: Date.now() });
    }
  });

  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    /** The body of a refused request (a JSON error). */
    async error(): Promise<{ error: { code: string; message: string } }> {
      await done;
      return JSON.parse(text);
    },
    events,
    /** Everything received so far, comments included. */
    text: () => text,
    topics: () => events.filter((e) => e.event === "change").map((e) => JSON.parse(e.data).topic),
    ended: () => ended,
    /** Resolves once the server ended the stream; rejects after `ms`. */
    async waitForEnd(ms = 5_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        done,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`stream did not end within ${ms} ms`)), ms);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    /** The first `change` of `topic` from event index `from`, waiting up to `ms`; its arrival time. */
    async waitFor(topic: string, ms = 2_000, from = 0): Promise<number> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events
          .slice(from)
          .find((e) => e.event === "change" && JSON.parse(e.data).topic === topic);
        if (found) return found.at;
        if (Date.now() > deadline) {
          throw new Error(`no "${topic}" change within ${ms} ms; got ${JSON.stringify(events)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close() {
      request.destroy();
    },
  };
}

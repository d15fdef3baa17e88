/**
 * Misbehaving webhook receivers for tests: one that answers its headers and then trickles a
 * byte every `everyMs`, forever (a slow-loris receiver), and one that streams an endless body
 * as fast as it can. Each counts connections open now and at most, and closes its sockets on
 * close(), so a test never waits for them.
 */
import { createServer, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

async function listen(handle: (response: ServerResponse) => void) {
  let open = 0;
  let mostOpen = 0;
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    request.resume();
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    response.on("close", () => {
      open -= 1;
    });
    handle(response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/slow`,
    /** Requests being answered now. */
    open: () => open,
    /** The most requests answered at once so far. */
    mostOpen: () => mostOpen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers 200 at once, then one byte every `everyMs`, and never ends the body. */
export function startTrickleReceiver(everyMs = 2000) {
  return listen((response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.write(".");
    const timer = setInterval(() => response.write("."), everyMs);
    response.on("close", () => clearInterval(timer));
  });
}

/** Answers 200 and streams 64 KB chunks until the client goes away. */
export function startFloodReceiver() {
  return listen((response) => {
    response.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) {}
      if (!response.destroyed) response.once("drain", pump);
    };
    pump();
  });
}

/** Accepts connections and reads the request, but never answers. */
export function startSilentReceiver() {
  return listen(() => {});
}

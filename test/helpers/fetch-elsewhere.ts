/**
 * Node's fetch in a process of its own, as warden/client runs in a merchant's backend. A
 * fetch in the test's own process shares its event loop with the server under test, so it
 * always reads the answer before the socket breaks, and hides what a real client sees.
 */
import { spawn } from "node:child_process";

/** Sends `times` oversized bodies one after another; each answer's status, or the error's code. */
const CLIENT = `
const { url, headers, bytes, streamed, times } = JSON.parse(process.argv[1]);
const head = '{"type":"signup","email":"';
const tail = '@example.com"}';
function body() {
  if (!streamed) return head + "a".repeat(bytes) + tail;
  // No Content-Length: sent chunked, as a client piping a body does.
  const chunk = new Uint8Array(64 * 1024).fill(97);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
      if (sent >= bytes) {
        controller.enqueue(new TextEncoder().encode(tail));
        controller.close();
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}
const results = [];
for (let i = 0; i < times; i++) {
  try {
    const res = await fetch(url, { method: "POST", headers, body: body(), duplex: "half" });
    const text = await res.text();
    results.push(res.status + " " + text.slice(0, 200));
  } catch (error) {
    results.push("error " + (error.cause?.code ?? error.cause?.message ?? error.message));
  }
}
console.log(JSON.stringify(results));
`;

export function fetchElsewhere(
  url: string,
  options: { headers: Record<string, string>; bytes: number; streamed: boolean; times: number },
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", CLIENT, JSON.stringify({ url, ...options })],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (data) => {
      out += data;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out) as string[]);
      else reject(new Error(`fetch process exited with ${code}: ${out}`));
    });
  });
}

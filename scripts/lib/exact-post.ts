/**
 * A POST with exactly the headers given, through node:http. fetch adds its own (Accept-Language
 * `*`, Sec-Fetch-Mode, a User-Agent of `node` when none is set), so a request without
 * Accept-Language, as a script sends it, cannot be made with fetch. Used where what a browser
 * puts on the wire is the point: the simulator's collects and the collector's tests.
 */
import { request } from "node:http";

export type ExactResponse = { status: number; headers: Record<string, string>; text: string };

export function postExact(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<ExactResponse> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
            ),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

/**
 * The bare Fastify route the benchmarks measure beside Warden (bare.ts): POST /bare parses the
 * JSON body and answers a small JSON, nothing else. Run as its own process (node --import
 * tsx); PORT from the environment, listening on 127.0.0.1 only; exits on SIGTERM/SIGINT.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post("/bare", async () => ({ decision: "allow", score: 0, reasons: [] }));
const stop = () => void app.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });

/**
 * GET /sdk/warden-client.tgz: the typed client as an npm tarball, so a merchant's project
 * installs it from their own Warden without a registry (`curl -fO …/sdk/warden-client.tgz` and
 * `npm install ./warden-client.tgz`, so package.json names the file, not this server). Packed on the first request and kept in memory: start-up pays nothing.
 */
import type { FastifyInstance } from "fastify";

export async function clientPackagePlugin(app: FastifyInstance) {
  let packed: Promise<Buffer> | undefined;
  app.get("/sdk/warden-client.tgz", async (request, reply) => {
    packed ??= import("../../../sdk/package/build-package.ts").then((m) => m.buildClientPackage());
    try {
      const tarball = await packed;
      return reply
        .type("application/gzip")
        .header("cache-control", "no-cache")
        .header("content-disposition", 'attachment; filename="warden-client.tgz"')
        .send(tarball);
    } catch (error) {
      packed = undefined; // a failed build is tried again on the next request
      request.log.error({ err: error }, "packing the client failed");
      throw error;
    }
  });
}

import { defineConfig } from "prisma/config";

// The CLI only generates the client here; migrations are applied by the server itself
// (server/db/migrate.ts) because the CLI's native engine cannot be downloaded offline.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});

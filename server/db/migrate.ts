/**
 * Applies prisma/migrations with Prisma's schema engine compiled to WebAssembly, through the
 * same driver adapter the app queries with. It records `_prisma_migrations` exactly as
 * `prisma migrate deploy` would, so the Prisma CLI sees the same state where it can run.
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

import { MIGRATIONS_DIR, PRISMA_DIR } from "./migrate-names.ts";

export { migrationNames, PRISMA_DIR } from "./migrate-names.ts";

const SCHEMA_PATH = join(PRISMA_DIR, "schema.prisma");
const NO_FILTERS = { externalTables: [], externalEnums: [] };

/**
 * The generated bindings keep the WASM instance in their own module, which Node loads once,
 * while this file may be loaded more than once (vitest loads it per project). So the
 * instance and a lock live on globalThis: a second instantiation would swap the memory
 * under a running engine.
 */
type EngineGlobal = {
  wasmReady?: Promise<void>;
  queue: Promise<unknown>;
  lastPanic?: string;
};
const KEY = Symbol.for("warden.schema-engine");
const registry = globalThis as Record<symbol, EngineGlobal | undefined>;
registry[KEY] ??= { queue: Promise.resolve() };
const shared: EngineGlobal = registry[KEY];

// The engine reports a Rust panic through this hook before it traps; without it the hook
// itself throws and takes the process down.
(globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY ??= {
  set_message(message: string) {
    shared.lastPanic = message;
  },
};

function loadWasm(): Promise<void> {
  shared.wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = join(
      dirname(require.resolve("@prisma/schema-engine-wasm")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return shared.wasmReady;
}

/** Runs one engine session at a time in this process. */
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const run = shared.queue.then(work, work);
  shared.queue = run.catch(() => {});
  return run.catch((error: unknown) => {
    if (shared.lastPanic) {
      const panic = shared.lastPanic;
      shared.lastPanic = undefined;
      throw new Error(`schema engine panicked: ${panic}`, { cause: error });
    }
    throw error;
  });
}

async function openEngine(adapterFactory: SqlMigrationAwareDriverAdapterFactory) {
  await loadWasm();
  const schemaText = await readFile(SCHEMA_PATH, "utf8");
  return bg.SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schemaText]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

/** The migrations folder in the shape the schema engine takes. */
export async function readMigrationsList() {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: {
          tag: "ok" as const,
          value: await readFile(join(MIGRATIONS_DIR, name, "migration.sql"), "utf8"),
        },
      },
    })),
  );
  const lockfile = await readFile(join(MIGRATIONS_DIR, "migration_lock.toml"), "utf8").catch(
    () => undefined,
  );
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: "migration_lock.toml", content: lockfile ?? null },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/** Applies pending migrations; returns the names applied (empty when up to date). */
export function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string[]> {
  return exclusive(async () => {
    const engine = await openEngine(adapterFactory);
    try {
      const result = await engine.applyMigrations({
        migrationsList: await readMigrationsList(),
        filters: NO_FILTERS,
      });
      return result.appliedMigrationNames;
    } finally {
      engine.free();
    }
  });
}

/** SQL that takes a database at the state of the migrations folder to the current schema. */
export function diffSchemaAgainstMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string> {
  return exclusive(() => diffNow(adapterFactory));
}

async function diffNow(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const engine = await openEngine(adapterFactory);
  try {
    const migrationsList = await readMigrationsList();
    const schemaText = await readFile(SCHEMA_PATH, "utf8");
    const from =
      migrationsList.migrationDirectories.length === 0
        ? { tag: "empty" as const }
        : { tag: "migrations" as const, ...migrationsList };
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schemaText }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    } as Parameters<typeof engine.diff>[0]);
    return result.stdout ?? "";
  } finally {
    engine.free();
  }
}

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";

/**
 * Prisma's schema engine compiled to WebAssembly: the same engine `prisma migrate` runs, without the
 * native binary the CLI would download (which cannot happen offline). The package's entry imports
 * the .wasm file directly, which Node refuses, so the module is instantiated by hand here.
 */
let initialised: Promise<void> | undefined;

async function initialiseWasm(): Promise<void> {
  const require = createRequire(import.meta.url);
  const bindingsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmBytes = await readFile(path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(wasmBytes, {
    "./schema_engine_bg.js": engineBindings as unknown as WebAssembly.ModuleImports,
  });
  const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start: () => void };
  engineBindings.__wbg_set_wasm(exports);
  exports.__wbindgen_start();
}

/** Starts a schema engine working through `adapterFactory` (PostgreSQL or PGlite). */
export async function startSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  schema?: { path: string; content: string },
): Promise<engineBindings.SchemaEngine> {
  initialised ??= initialiseWasm();
  await initialised;
  const log = (message: string) => {
    if (process.env.BENCHTRACK_DEBUG_MIGRATIONS) console.error(message);
  };
  return engineBindings.SchemaEngine.new(
    { datamodels: schema ? [[schema.path, schema.content]] : undefined },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

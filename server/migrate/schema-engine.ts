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

/**
 * The engine races its work against 10 s timers (its advisory lock wait among them) and never clears
 * them: each would keep a process that has finished migrating alive for 10 s more (`npm run db:migrate`,
 * the demo seed). Its timers are kept here and cleared once no engine is at work.
 */
const engineTimers = new Set<ReturnType<typeof setTimeout>>();
let enginesAtWork = 0;

/** The bindings' own setTimeout import, `setTimeout(callback, ms >>> 0)`, keeping the timer until it fires. */
function trackedSetTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(() => {
    engineTimers.delete(timer);
    callback();
  }, ms >>> 0);
  engineTimers.add(timer);
  return timer;
}

async function initialiseWasm(): Promise<void> {
  const require = createRequire(import.meta.url);
  const bindingsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmBytes = await readFile(path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm"));
  // The bindings' setTimeout import (its name carries a hash) goes through trackedSetTimeout.
  const imports = Object.fromEntries(
    Object.entries(engineBindings).map(([name, binding]) => [
      name,
      name.startsWith("__wbg_setTimeout_") ? trackedSetTimeout : binding,
    ]),
  );
  const { instance } = await WebAssembly.instantiate(wasmBytes, { "./schema_engine_bg.js": imports });
  const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start: () => void };
  engineBindings.__wbg_set_wasm(exports);
  exports.__wbindgen_start();
}

/**
 * Runs `work` with a schema engine working through `adapterFactory` (PostgreSQL or PGlite), then frees
 * it; the last engine at work to finish clears the timers engines left behind.
 */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: engineBindings.SchemaEngine) => Promise<T>,
): Promise<T> {
  initialised ??= initialiseWasm();
  await initialised;
  const log = (message: string) => {
    if (process.env.BENCHTRACK_DEBUG_MIGRATIONS) console.error(message);
  };
  enginesAtWork++;
  try {
    const engine = await engineBindings.SchemaEngine.new(
      { datamodels: undefined },
      log,
      bindMigrationAwareSqlAdapterFactory(adapterFactory),
    );
    try {
      return await work(engine);
    } finally {
      engine.free();
    }
  } finally {
    if (--enginesAtWork === 0) {
      for (const timer of engineTimers) clearTimeout(timer);
      engineTimers.clear();
    }
  }
}

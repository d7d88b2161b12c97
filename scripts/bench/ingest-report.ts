import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../lib/build";
import { printTable } from "./table";
import type { Row } from "./table";

/**
 * The report of the bench's ingest, scale and isolation parts (scripts/bench.ts): each figure printed as
 * it is measured and kept for the closing `backend | test | figure` table, then the table and everything
 * measured, with the machine it ran on, written to bench-results/ (pages-report.ts is the page part's).
 */

/** A part's lines on one backend: each printed now and kept as a row of the closing table. */
export function recordLines(rows: Row[], backend: string, lines: readonly { test: string; figure: string }[]): void {
  for (const line of lines) {
    rows.push({ backend, ...line });
    console.log(`[${backend}]   ${line.test}: ${line.figure}`);
  }
}

/** Prints the closing table and writes the figures of every backend, the options and the table to `resultsPath`. */
export function writeIngestReport(resultsPath: string, rows: Row[], backends: Record<string, unknown>[], options: Record<string, number>): void {
  printTable(rows);
  writeFileSync(
    resultsPath,
    JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        machine: {
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model ?? null,
          memoryGb: os.totalmem() / 1024 ** 3,
          node: process.version,
        },
        options,
        backends,
        table: rows,
      },
      null,
      2,
    ),
  );
  console.log(`\nWrote ${path.relative(ROOT, resultsPath)}`);
}

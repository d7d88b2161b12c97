/**
 * A CSV file read into header + rows keyed by column name, each row remembering its line number so
 * errors can say `locust_stats.csv: line 7`. CSV exports from load tools are small, so the sync API of
 * csv-parse is fine here.
 */
import { CsvError, parse } from "csv-parse/sync";
import { z } from "zod";
import { InputError } from "../input-error";

export interface CsvRow {
  /** 1-based line where the record ends (a quoted cell may span lines). */
  line: number;
  cells: Record<string, string>;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

// csv-parse's `info: true` output is typed as string[][] by its overloads; check the real shape.
const recordsWithInfoSchema = z.array(
  z.object({ record: z.array(z.string()), info: z.object({ lines: z.number() }) }),
);

export function readCsvTable(text: string, source: string): CsvTable {
  let parsed: unknown;
  try {
    parsed = parse(text, { info: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : null;
      const path = line === null ? source : `${source}: line ${line}`;
      throw new InputError("malformed", `Invalid CSV in ${path}: ${error.message}`, [{ path, message: error.message }]);
    }
    throw error;
  }
  const records = recordsWithInfoSchema.parse(parsed);
  const [headerRecord, ...dataRecords] = records;
  if (!headerRecord) {
    throw new InputError("malformed", `${source} is empty`, [{ path: `${source}: line 1`, message: "no header row" }]);
  }
  const header = headerRecord.record.map((name) => name.trim());
  const rows = dataRecords.map(({ record, info }) => {
    const cells: Record<string, string> = {};
    header.forEach((column, index) => {
      cells[column] = record[index] ?? "";
    });
    return { line: info.lines, cells };
  });
  return { header, rows };
}

/** Throws malformed input naming the header line when required columns are missing. */
export function requireColumns(table: CsvTable, required: readonly string[], source: string): void {
  const missing = required.filter((column) => !table.header.includes(column));
  if (missing.length === 0) return;
  const message = `missing column${missing.length > 1 ? "s" : ""} ${missing.map((c) => `"${c}"`).join(", ")}`;
  throw new InputError("malformed", `${source} has no header row with the expected columns (${message})`, [
    { path: `${source}: line 1`, message },
  ]);
}

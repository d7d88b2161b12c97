/**
 * The page benchmark's printed report (pages.ts): the per-page table against the budget, the first view
 * after an upload beside the warm page and the SQL floor, and what EXPLAIN found.
 */
import { describeFinding } from "./page-explain";
import type { ExplainReport } from "./page-explain";
import type { SeededHistory } from "./page-history";
import type { ZoomedOutFloor } from "./zoomed-out-floor";

/** The target the figures are read against (reported, never asserted). */
export const PAGE_BUDGET_MS = 300;

export interface PageFigure {
  page: string;
  path: string;
  /** Status of the warm-up GET; timings only when every GET answered 200. */
  status: number;
  bytes: number;
  /** The warm-up GET: the route's first view (code loaded, pools and the trend cache filled by it). */
  firstMs: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  samplesMs: number[];
}

/** A trend page's first view after an upload: GETs timed each right after an upload answered. */
export interface FirstViewFigure {
  page: string;
  path: string;
  /** 200, or the first status that was not (of an upload or a GET): then nothing is timed. */
  status: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  samplesMs: number[];
  /** The uploads' own time to their answer (POST), p50, shared by the pages. */
  uploadP50Ms: number | null;
}

export interface PageBenchResult {
  seeding: Omit<SeededHistory, "projectId">;
  pages: PageFigure[];
  /** The trend pages' first view after an upload (timed after the warm figures). */
  firstViews: FirstViewFigure[];
  explain: ExplainReport | null;
  zoomedOutFloors: ZoomedOutFloor[];
}

const ms = (value: number | null) => (value === null ? "" : value.toFixed(1));

export function tableRow(kind: string, figure: PageFigure): string[] {
  const verdict = figure.p95Ms === null ? "not timed" : figure.p95Ms < PAGE_BUDGET_MS ? "yes" : "NO";
  return [
    kind,
    figure.page,
    String(figure.status),
    (figure.bytes / 1024).toFixed(0),
    ms(figure.firstMs),
    ms(figure.p50Ms),
    ms(figure.p95Ms),
    ms(figure.maxMs),
    verdict,
    figure.path,
  ];
}

/** The first-view row: its GETs beside the same page's warm p50 and the SQL floor of the same run. */
export function firstViewRow(kind: string, figure: FirstViewFigure, result: PageBenchResult): string[] {
  const warm = result.pages.find((page) => page.page === figure.page)?.p50Ms ?? null;
  return [
    kind,
    figure.page,
    String(figure.status),
    String(figure.samplesMs.length),
    ms(figure.p50Ms),
    ms(figure.p95Ms),
    ms(figure.maxMs),
    ms(warm),
    ms(result.explain?.trendFloor?.floorMs ?? null),
    ms(figure.uploadP50Ms),
  ];
}

export function printFirstViews(rows: string[][]): void {
  console.log("\nFirst view after an upload (upload the next run through the API, then GET the page):");
  printRows(
    ["backend", "page", "status", "uploads", "p50 ms", "p95 ms", "max ms", "warm p50 ms", "SQL floor ms", "upload p50 ms"],
    rows,
  );
}

export function printTable(rows: string[][]): void {
  const header = [
    "backend",
    "page",
    "status",
    "KB",
    "first ms",
    "p50 ms",
    "p95 ms",
    "max ms",
    `p95 < ${PAGE_BUDGET_MS} ms`,
    "path",
  ];
  printRows(header, rows);
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const format = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join(" | ")
      .trimEnd();
  console.log(`\n${format(header)}`);
  console.log(widths.map((width) => "-".repeat(width)).join("-+-"));
  for (const row of rows) console.log(format(row));
}

export function logExplain(report: ExplainReport, log: (line: string) => void): void {
  log("service calls (in process; first call, then second):");
  for (const timing of report.services) {
    log(
      `  ${timing.coldMs.toFixed(1).padStart(7)} ms, ${timing.ms.toFixed(1).padStart(7)} ms  ${timing.service} (${timing.statements} statements)`,
    );
  }
  const floor = report.trendFloor;
  if (floor) {
    log(
      `trend data query ${floor.trendQueryMs.toFixed(1)} ms (${floor.trendQueryRows} rows) vs the SQL alone reading ` +
        `the endpoint's last 1,000 points ${floor.floorMs.toFixed(1)} ms (${floor.floorRows} rows): ` +
        `${(floor.trendQueryMs / floor.floorMs).toFixed(1)}× the floor`,
    );
  }
  log(`EXPLAIN (ANALYZE, BUFFERS) of ${report.explainedStatements} distinct statements; the slowest:`);
  for (const finding of report.slowest) log(`  ${describeFinding(finding)}`);
  log(`statements reading a large table whole: ${report.largeSeqScans.length}`);
  for (const finding of report.largeSeqScans) {
    const sql = finding.sql.replace(/\s+/g, " ").trim();
    log(`  ${describeFinding(finding)}\n    ${sql.length > 400 ? `${sql.slice(0, 400)}…` : sql}`);
  }
}

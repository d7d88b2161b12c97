/**
 * The reports of one vegeta attack sent together: a JSON or text report and at most one histogram, which
 * is added to the report's aggregate (their request counts must agree).
 */
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { sourceOf, type DetectedFile } from "../uploaded-file";
import { parseVegetaHist, readVegetaHist } from "./vegeta-hist";
import { readVegetaJson } from "./vegeta-json";
import { parseVegetaText } from "./vegeta-text";
import { parseJsonText } from "../wire";

export function parseVegetaSet(files: readonly DetectedFile[]): ParsedRun {
  const reports: { source: string; file: DetectedFile }[] = [];
  const hists: { source: string; file: DetectedFile }[] = [];
  for (const [index, file] of files.entries()) {
    const source = sourceOf(file, index);
    if (file.format === "vegeta-hist") hists.push({ source, file });
    else if (file.format === "vegeta-json" || file.format === "vegeta-text") reports.push({ source, file });
    else
      throw new InputError("malformed", `${source} is not a vegeta report`, [
        { path: source, message: `a ${file.format} file among vegeta reports` },
      ]);
  }
  for (const [kind, group] of [
    ["JSON or text reports", reports],
    ["histograms", hists],
  ] as const) {
    if (group.length > 1) {
      throw new InputError(
        "malformed",
        `${group.length} vegeta ${kind} in one upload: ${group.map((g) => g.source).join(", ")}`,
        group.map((g) => ({
          path: g.source,
          message: `one of ${group.length} vegeta ${kind}; send the reports of one attack: one JSON or text report and at most one histogram`,
        })),
      );
    }
  }
  const report = reports[0];
  const hist = hists[0];
  if (!report) {
    if (!hist)
      throw new InputError("malformed", "No vegeta report in the upload", [{ path: "files", message: "no file" }]);
    return parseVegetaHist(hist.file.text, hist.source);
  }
  const run =
    report.file.format === "vegeta-json"
      ? readVegetaJson(report.file.document ?? parseJsonText(report.file.text, report.source), report.source)
      : parseVegetaText(report.file.text, report.source);
  if (!hist) return run;
  const histogram = readVegetaHist(hist.file.text, hist.source);
  if (histogram.requests !== run.aggregate.requests) {
    const message = `${hist.source} counts ${histogram.requests} requests, ${report.source} ${run.aggregate.requests ?? "none"}: not the same attack`;
    throw new InputError("malformed", `The vegeta histogram and report disagree: ${message}`, [
      { path: hist.source, message },
      { path: report.source, message },
    ]);
  }
  run.aggregate.histogram = histogram.histogram;
  run.notes.push(...histogram.notes);
  return run;
}

/**
 * An artillery report.json with the console output of the same run: the JSON's numbers, the console's
 * ensure checks (which report.json does not hold). Their summaries must count the same requests.
 */
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { parseArtilleryConsole, readArtilleryConsole } from "./artillery-console";
import { readArtilleryJson } from "./artillery-json";
import { sourceOf, type DetectedFile } from "../uploaded-file";

export function parseArtillerySet(files: readonly DetectedFile[]): ParsedRun {
  const sourced = files.map((file, index) => ({ file, source: sourceOf(file, index) }));
  const jsons = sourced.filter(({ file }) => file.format === "artillery-json");
  const consoles = sourced.filter(({ file }) => file.format === "artillery-console");
  const others = sourced.filter(({ file }) => file.format !== "artillery-json" && file.format !== "artillery-console");
  const refuse = (message: string, parts: readonly { source: string }[], why: string): never => {
    throw new InputError(
      "malformed",
      message,
      parts.map(({ source }) => ({ path: source, message: why })),
    );
  };
  if (others.length > 0)
    refuse(
      "Only an artillery report.json and its console output make one artillery run",
      others,
      "not artillery output",
    );
  if (jsons.length > 1)
    refuse(
      "Two artillery report.json files in one upload",
      jsons,
      "one report.json per run; upload runs one at a time",
    );
  if (consoles.length > 1)
    refuse(
      "Two artillery console outputs in one upload",
      consoles,
      "one console output per run; upload runs one at a time",
    );
  const [json] = jsons;
  const [consoleOutput] = consoles;
  if (!consoleOutput) {
    if (!json)
      return refuse("No artillery output in the upload", sourced, "expected report.json or the console output");
    return readArtilleryJson(json.file.document, `${json.source}: `);
  }
  if (!json) return parseArtilleryConsole(consoleOutput.file.text, consoleOutput.source);
  const { run: fromConsole, checkNotes } = readArtilleryConsole(consoleOutput.file.text, consoleOutput.source);
  const run = readArtilleryJson(json.file.document, `${json.source}: `);
  // The console's summary prints the same aggregate as report.json: its counts must be the same.
  const countsOf = ({ aggregate }: ParsedRun): string =>
    `http.requests ${aggregate.requests ?? "none"}, codes ${Object.entries(aggregate.statusCodes ?? {})
      .sort()
      .map(([code, n]) => `${code}: ${n}`)
      .join(", ")}`;
  if (countsOf(run) !== countsOf(fromConsole)) {
    const why = `${countsOf(run)} in ${json.source}; ${countsOf(fromConsole)} in ${consoleOutput.source}`;
    refuse(
      `${json.source} and ${consoleOutput.source} are not the same artillery run (${why})`,
      [json, consoleOutput],
      why,
    );
  }
  return {
    ...run,
    thresholds: fromConsole.thresholds,
    checks: fromConsole.checks,
    notes: [...run.notes, ...checkNotes],
  };
}

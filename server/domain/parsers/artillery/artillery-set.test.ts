import { describe, expect, it } from "vitest";
import { parseArtilleryConsole } from "./artillery-console";
import { parseArtilleryJson } from "./artillery-json";
import { parseArtillerySet } from "./artillery-set";
import { CONSOLE_FILE, consoleText, inSummary, reportOf } from "../fixtures/artillery-outputs";
import { errorOf } from "../fixtures/input-error-of";
import type { DetectedFile } from "../uploaded-file";

describe("artillery report.json with its console output", () => {
  const jsonFile = (variant = "baseline"): DetectedFile => ({
    name: "report.json",
    text: "",
    format: "artillery-json",
    document: reportOf(variant),
  });
  const consoleFile = (text = consoleText, name = CONSOLE_FILE): DetectedFile => ({
    name,
    text,
    format: "artillery-console",
  });

  it("takes the JSON's numbers and the console's checks", () => {
    const json = parseArtilleryJson(reportOf("baseline"));
    for (const files of [
      [jsonFile(), consoleFile()],
      [consoleFile(), jsonFile()],
    ]) {
      const run = parseArtillerySet(files);
      expect(run.format).toBe("artillery-json");
      expect(run.thresholds).toEqual(parseArtilleryConsole(consoleText, CONSOLE_FILE).thresholds);
      expect({ ...run, thresholds: [] }).toEqual(json);
    }
  });

  it("reads one file alone with its own parser", () => {
    expect(parseArtillerySet([jsonFile()])).toEqual(parseArtilleryJson(reportOf("baseline")));
    expect(parseArtillerySet([consoleFile()])).toEqual(parseArtilleryConsole(consoleText, CONSOLE_FILE));
  });

  it.each([
    [
      "two JSON reports",
      () => [jsonFile(), { ...jsonFile("managedasync"), name: "other.json" }],
      ["report.json", "other.json"],
    ],
    [
      "two console outputs",
      () => [consoleFile(), consoleFile(consoleText, "again.txt"), jsonFile()],
      [CONSOLE_FILE, "again.txt"],
    ],
    ["a console of another run", () => [jsonFile("managedasync"), consoleFile()], ["report.json", CONSOLE_FILE]],
    [
      "a console with another request count",
      () => [
        jsonFile(),
        consoleFile(inSummary(consoleText, (tail) => tail.replace(/^(http\.requests: \.+ )600$/m, "$1601"))),
      ],
      ["report.json", CONSOLE_FILE],
    ],
  ])("refuses %s, naming the files", (_what, files, paths) => {
    const error = errorOf(() => parseArtillerySet(files()));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toEqual(paths);
  });

  it("names the file in a JSON path", () => {
    const report = structuredClone(reportOf("baseline"));
    Object.assign(report.aggregate.counters, { "http.requests": null });
    const error = errorOf(() => parseArtillerySet([{ ...jsonFile(), document: report }, consoleFile()]));
    expect(error.details[0]?.path).toBe("report.json: aggregate.counters.http.requests");
  });
});

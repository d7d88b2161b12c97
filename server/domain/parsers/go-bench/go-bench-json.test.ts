/**
 * go test -json (test2json): result lines rejoined across events and per package, the same benchmarks as the
 * text, and the refusals of lines that are no event or break a result.
 */
import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseGoBenchJson, parseGoBenchText } from "./go-bench";
import { JSON_LINES, TEXT } from "./go-bench.fixture";

describe("go test -json (test2json)", () => {
  const jsonLines = readFixture(JSON_LINES);

  it("rejoins the result lines test2json split across two output events", () => {
    const events = jsonLines
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { Output?: string });
    const split = events.filter((event) => event.Output?.startsWith("Benchmark") && !event.Output.endsWith("\n"));
    expect(split.length).toBeGreaterThan(0);
    const encode = parseGoBenchJson(jsonLines, "gobench.json").endpoints[0]!;
    expect(encode.name).toBe("example.com/microbench > BenchmarkEncodeJSON");
    // Lines 6-7 of the file: "BenchmarkEncodeJSON-2   \t" then "    7057\t     81438 ns/op…".
    expect(encode.requests).toBe(3);
    expect(encode.latency.minMs).toBeCloseTo(0.079163, 12);
    expect(encode.latency.maxMs).toBeCloseTo(0.081438, 12);
  });

  it("gives the same benchmark names as the text, and the first event's time as the start", () => {
    const fromJson = parseGoBenchJson(jsonLines, "gobench.json");
    const fromText = parseGoBenchText(readFixture(TEXT), "gobench.txt");
    expect(fromJson.endpoints.map((endpoint) => endpoint.name)).toEqual(
      fromText.endpoints.map((endpoint) => endpoint.name),
    );
    expect(fromJson.environment.testbed).toBe(fromText.environment.testbed);
    expect(fromJson.startedAt).toBe("2026-11-25T22:31:36.473Z");
    expect(fromText.startedAt).toBeNull();
  });

  it("reads each package's output apart when packages' events interleave", () => {
    const other = jsonLines
      .replaceAll('"Package":"example.com/microbench"', '"Package":"example.com/other"')
      .replaceAll("pkg: example.com/microbench", "pkg: example.com/other");
    const first = jsonLines.split("\n").filter((line) => line !== "");
    const second = other.split("\n").filter((line) => line !== "");
    const interleaved = first.flatMap((line, index) => [line, second[index]!]).join("\n");
    const run = parseGoBenchJson(interleaved, "both.json");
    expect(run.endpoints).toHaveLength(14);
    expect(run.endpoints.filter((endpoint) => endpoint.name.startsWith("example.com/other > "))).toHaveLength(7);
    expect(run.endpoints.every((endpoint) => endpoint.requests === 3)).toBe(true);
    expect(run.environment.attributes.pkg).toBeUndefined();
    expect(run.durationSeconds).toBeNull();
  });

  it("rejoins a long line cut into many events, in linear time", () => {
    const name = `BenchmarkLong/${"x".repeat(200_000)}`;
    const line = `${name}-2 \t 100\t 5000 ns/op\n`;
    const events: string[] = [];
    for (let start = 0; start < line.length; start += 20) {
      events.push(
        JSON.stringify({
          Time: "2026-11-25T22:31:36Z",
          Action: "output",
          Package: "p",
          Output: line.slice(start, start + 20),
        }),
      );
    }
    const started = performance.now();
    const run = parseGoBenchJson(events.join("\n"), "long.json");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(run.endpoints[0]?.name).toBe(name);
    expect(run.endpoints[0]?.latency.meanMs).toBeCloseTo(0.005, 12);
  });

  it("refuses a line that is not a test2json event, naming it", () => {
    const lines = jsonLines.split("\n");
    const cut = [...lines.slice(0, 8), lines[8]!.slice(0, 40), ...lines.slice(9)].join("\n");
    const error = errorOf(() => parseGoBenchJson(cut, "gobench.json"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("gobench.json: line 9");
    const notObject = [...lines.slice(0, 3), "[1, 2]", ...lines.slice(3)].join("\n");
    expect(errorOf(() => parseGoBenchJson(notObject, "gobench.json")).details[0]?.path).toBe("gobench.json: line 4");
    const badOutput = lines
      .map((line, index) => (index === 10 ? line.replace(/"Output":"[^"]*"/, '"Output":42') : line))
      .join("\n");
    expect(badOutput).not.toBe(jsonLines);
    expect(errorOf(() => parseGoBenchJson(badOutput, "gobench.json")).details[0]?.path).toBe("gobench.json: line 11");
    const noAction = [...lines.slice(0, 2), '{"Time":"2026-11-25T22:31:36Z","Output":"x\\n"}', ...lines.slice(2)].join(
      "\n",
    );
    expect(errorOf(() => parseGoBenchJson(noAction, "gobench.json")).details[0]?.path).toBe("gobench.json: line 3");
  });

  it("refuses a result line broken inside the output, naming the event where it began", () => {
    const broken = jsonLines.replace('"    7057\\t     81438 ns/op', '"    7057\\t     81438');
    expect(broken).not.toBe(jsonLines);
    const error = errorOf(() => parseGoBenchJson(broken, "gobench.json"));
    expect(error.details[0]?.path).toBe("gobench.json: line 6");
  });

  it("refuses a stream with no benchmark results", () => {
    const header = jsonLines.split("\n").slice(0, 4).join("\n");
    expect(errorOf(() => parseGoBenchJson(header, "gobench.json")).message).toMatch(/no benchmark results/);
    expect(errorOf(() => parseGoBenchJson("", "gobench.json")).message).toMatch(/no benchmark results/);
  });
});

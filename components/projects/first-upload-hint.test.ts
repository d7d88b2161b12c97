import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AdminTokenSource } from "@/server/admin-token";
import { FORMAT_LIST } from "@/server/domain/parsers/format-list";
import { FirstUploadHint, formatsByTool } from "./first-upload-hint";

/** The hint as text (tags dropped, entities read back), as a person reads it. */
function hintText(token: AdminTokenSource, sampleFile: string | null = "server/domain/parsers/fixtures/k6/baseline/groups-submetrics/summary.json"): string {
  const html = renderToStaticMarkup(createElement(FirstUploadHint, { baseUrl: "http://bench.test:3000", token, sampleFile }));
  return html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");
}

describe("the first-upload hint", () => {
  it("with the token npm start made: the line that reads its file, then a curl of the bundled sample to this server", () => {
    const text = hintText({ kind: "file", path: ".data/admin-token" });
    expect(text).toContain("export BENCHTRACK_ADMIN_TOKEN=$(cat .data/admin-token)");
    expect(text).toContain("curl --data-binary @server/domain/parsers/fixtures/k6/baseline/groups-submetrics/summary.json");
    expect(text).toContain('-H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN"');
    expect(text).toContain('"http://bench.test:3000/api/v1/projects/my-service/runs?label=baseline"');
    expect(text).not.toMatch(/no admin token/);
  });

  it("with a token from the environment: no file to read, the same upload", () => {
    const text = hintText({ kind: "environment" });
    expect(text).not.toContain("$(cat");
    expect(text).toContain("was started with  BENCHTRACK_ADMIN_TOKEN  set");
    expect(text).toContain("/api/v1/projects/my-service/runs?label=baseline");
  });

  it("without the bundled sample: the file k6 writes, named with the command that writes it", () => {
    const text = hintText({ kind: "file", path: ".data/admin-token" }, null);
    expect(text).toContain("curl --data-binary @summary.json");
    expect(text).toContain("k6 run --summary-export=summary.json script.js");
  });

  it("with no admin token: says so and how to set one, instead of a command that would answer 401", () => {
    const made = hintText({ kind: "none", canStartMakeOne: true, path: ".data/admin-token" });
    expect(made).toContain("This server has no admin token");
    expect(made).toContain("an upload would answer 401");
    expect(made).toContain("Restart it with  npm start , which makes one and keeps it in  .data/admin-token");
    expect(made).toContain("export BENCHTRACK_ADMIN_TOKEN=$(openssl rand -hex 32)");
    expect(made).not.toContain("curl --data-binary");

    const replicas = hintText({ kind: "none", canStartMakeOne: false, path: ".data/admin-token" });
    expect(replicas).toContain("the same on every replica");
    expect(replicas).not.toContain("which makes one");
  });

  it("lists every format the registry reads, by tool, whatever the token", () => {
    const groups = formatsByTool();
    expect(groups.map((group) => group.tool)).toEqual([...new Set(FORMAT_LIST.map((format) => format.tool))]);
    expect(groups.flatMap((group) => group.titles)).toHaveLength(FORMAT_LIST.length);
    expect(groups.find((group) => group.tool === "k6")?.titles).toEqual([
      "--summary-export JSON",
      "handleSummary JSON",
      "--new-machine-readable-summary JSON",
      "--out json NDJSON",
    ]);
    expect(groups.find((group) => group.tool === "jmeter")?.titles).toEqual(["JTL results (CSV)", "JTL results (XML)"]);
    for (const token of [{ kind: "environment" }, { kind: "none", canStartMakeOne: true, path: "x" }] as const) {
      const text = hintText(token);
      expect(text).toContain(`Formats read  (${FORMAT_LIST.length})`);
      for (const { tool, titles } of groups) {
        expect(text).toContain(tool);
        for (const title of titles) expect(text).toContain(title);
      }
    }
  });
});

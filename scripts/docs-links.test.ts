import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ link to each other: every relative link must reach a file of this repository,
 * and every `#anchor` a heading of its page (as GitHub makes anchors: lower case, punctuation dropped,
 * spaces to hyphens).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const PAGES = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** `[text](target)` links outside code, with their line numbers. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  for (const [index, line] of markdown.split("\n").entries()) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: match[1]!, line: index + 1 });
  }
  return links;
}

describe("links of the README and docs/", () => {
  it.each(PAGES)("%s: every relative link reaches a file and a heading", (page) => {
    const markdown = readFileSync(path.join(ROOT, page), "utf8");
    const broken: string[] = [];
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved = file === "" ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
      if (!existsSync(resolved)) {
        broken.push(`${page}:${line} ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) {
        broken.push(`${page}:${line} ${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("finds a broken link (the check itself can fail)", () => {
    expect(anchorsOf("# Quick start: a first upload\n## A/B jobs: base and head")).toEqual(new Set(["quick-start-a-first-upload", "ab-jobs-base-and-head"]));
    expect(linksOf("see [x](docs/nope.md#here) and `[y](z)`")).toEqual([{ target: "docs/nope.md#here", line: 1 }]);
  });
});

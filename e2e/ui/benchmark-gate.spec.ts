import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import type { ManifestRun, Variant } from "../../scripts/evaluate/micro-runs";
import { firstSingleRun, manifestRuns, QUIET_RUNS, runFile } from "../../scripts/evaluate/micro-runs";
import { WRITES_SCREENSHOTS, lookAt, uniqueSlug, uploadRun } from "../helpers";

/**
 * The CI gate on real microbenchmark runs made on this project's shared 2-core machine
 * (scripts/evaluate/micro-quiet: the code as it is, and variants that change some benchmarks), uploaded as
 * CI uploads them: a run of main, then a pull request's run against its merge-base. The run page names
 * every benchmark that moved beyond the noise, with its status; the PR comment lists the same; an A/B
 * job's head run says how its job was judged. Files are picked by rule from each tool's manifest (its first
 * run of a kind without a burst), never by their numbers.
 */
const read = (tool: string, run: ManifestRun, pattern: RegExp) => runFile(QUIET_RUNS, tool, run, pattern)!.text;

/** Main's run, then a pull request's run of the variant against its merge-base: the PR run's answer. */
async function pullRequest(request: Parameters<typeof uploadRun>[0], slug: string, tool: string, variant: Variant, pattern: RegExp) {
  await uploadRun(request, slug, read(tool, firstSingleRun(QUIET_RUNS, tool, "base"), pattern), { branch: "main", commit: "a1b2c3d4e5f6" });
  return uploadRun(request, slug, read(tool, firstSingleRun(QUIET_RUNS, tool, variant), pattern), {
    branch: `perf/${tool}-${variant}`,
    commit: "f6e5d4c3b2a1",
    pr: "7",
    base_commit: "a1b2c3d4e5f6",
  });
}

type Answer = Awaited<ReturnType<typeof uploadRun>> & {
  outcome: string;
  reasons: string[];
  comparison: { changes: { endpoint: string; status: string }[] };
  comment: { markdown: string };
};

/** The changes named as slower on the run page, by benchmark. */
async function namedOnPage(page: Page): Promise<Map<string, string>> {
  const rows = page.getByTestId("gate-change");
  const named = new Map<string, string>();
  for (const row of await rows.all()) {
    const status = (await row.getAttribute("data-status"))!;
    if (status !== "improved") named.set((await row.locator('[data-column="endpoint"]').innerText()).trim(), status);
  }
  return named;
}

/** The PR comment as GitHub would show it, well enough to look at: headings, bold, tables, links, lists. */
function commentHtml(markdown: string): string {
  const inline = (text: string) =>
    text
      .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>")
      .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>')
      .replace(/`([^`]+)`/g, "<code>$1</code>");
  const html: string[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("<!--")) continue;
    if (line.startsWith("|")) {
      const rows: string[] = [];
      while (index < lines.length && lines[index]!.startsWith("|")) rows.push(lines[index++]!);
      index--;
      const cells = (row: string) => row.slice(1, -1).split(" | ").map((cell) => inline(cell.trim()));
      html.push(
        `<table><tr>${cells(rows[0]!).map((cell) => `<th>${cell}</th>`).join("")}</tr>${rows
          .slice(2)
          .map((row) => `<tr>${cells(row).map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
          .join("")}</table>`,
      );
    } else if (/^#{3,4} /.test(line)) html.push(`<h3>${inline(line.replace(/^#+ /, ""))}</h3>`);
    else if (line.startsWith("- ")) html.push(`<li>${inline(line.slice(2))}</li>`);
    else if (line.trim() !== "") html.push(`<p>${inline(line)}</p>`);
  }
  return `<!doctype html><meta charset="utf-8"><style>body{font:14px -apple-system,Segoe UI,sans-serif;max-width:1000px;margin:24px;color:#1f2328}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;padding:4px 8px;font-size:13px}th{background:#f6f8fa}h3{margin:12px 0 4px}code{background:#f6f8fa;padding:1px 4px}</style><div class="comment">${html.join("\n")}</div>`;
}

test.describe("the CI gate on real microbenchmark runs", () => {
  test("go test -bench: a change to four benchmarks fails, and the run page and the PR comment name every one, exact counts as exact", async ({ page, request }) => {
    const slug = uniqueSlug("gate-go");
    const answer = (await pullRequest(request, slug, "go", "half", /\.txt$/)) as Answer;
    expect(answer.outcome).toBe("fail");
    const changed = ["BenchmarkEncodeJSON", "BenchmarkJoinInts", "BenchmarkMapLookup", "BenchmarkChecksum"].map((name) => `example.com/microbench > ${name}`);
    const named = answer.comparison.changes.filter((change) => change.status !== "improved");
    // Nothing that did not change is named; the exact counts that changed are named as exact.
    for (const change of named) expect(changed).toContain(change.endpoint);
    for (const exact of [changed[0]!, changed[1]!]) expect(named.some((change) => change.endpoint === exact && change.status === "exact")).toBe(true);

    await page.goto(answer.url);
    await expect(page.getByTestId("outcome-badge")).toContainText(/fail/i);
    const onPage = await namedOnPage(page);
    for (const change of named) expect(onPage.has(change.endpoint)).toBe(true);
    await expect(page.getByTestId("gate-reasons")).toContainText("beyond the noise, largest first");
    if (WRITES_SCREENSHOTS) await lookAt(page.getByTestId("run-gate"), "benchmark-gate-go-run");

    // The PR comment: the same changes, each with its status.
    for (const change of named) expect(answer.comment.markdown).toContain(change.endpoint.replace(/>/g, "&gt;").replace(/([_[\]])/g, "\\$1"));
    await page.setContent(commentHtml(answer.comment.markdown));
    await expect(page.locator("h3").first()).toContainText("FAIL");
    if (WRITES_SCREENSHOTS) await lookAt(page, "benchmark-gate-go-pr-comment");
  });

  test("hyperfine: the script made about 1.5x slower is named first, and no unchanged command is named", async ({ page, request }) => {
    const slug = uniqueSlug("gate-hyperfine");
    const answer = (await pullRequest(request, slug, "hyperfine", "small", /^.*run-\d+\.json$/)) as Answer;
    const named = answer.comparison.changes.filter((change) => change.status !== "improved");
    expect(named.map((change) => change.endpoint)).toEqual(["python3 wordfreq.py data.txt"]);
    expect(answer.reasons[0]).toMatch(/^python3 wordfreq\.py data\.txt|regressed against the baseline/);
    await page.goto(answer.url);
    expect([...(await namedOnPage(page)).keys()]).toEqual(["python3 wordfreq.py data.txt"]);
  });

  test("pytest-benchmark: every sort made slower is named, not only the largest", async ({ page, request }) => {
    const slug = uniqueSlug("gate-pytest");
    const answer = (await pullRequest(request, slug, "pytest-benchmark", "half", /\.json$/)) as Answer;
    const changed = ["strings > test_join", "sort > test_sort[100]", "sort > test_sort[1000]", "sort > test_sort[10000]"];
    const named = answer.comparison.changes.filter((change) => change.status !== "improved").map((change) => change.endpoint);
    for (const name of named) expect(changed).toContain(name);
    for (const sort of changed.slice(1)) expect(named).toContain(sort);
    await page.goto(answer.url);
    const onPage = await namedOnPage(page);
    for (const sort of changed.slice(1)) expect(onPage.has(sort)).toBe(true);
    if (WRITES_SCREENSHOTS) await lookAt(page.getByTestId("run-gate"), "benchmark-gate-pytest-run");
  });

  test("an A/B job's head run: judged against its own job's base runs, pair by pair, and says so", async ({ page, request }) => {
    const slug = uniqueSlug("gate-ab");
    const job = manifestRuns(QUIET_RUNS, "go").filter((run) => run.kind === "ab" && run.job === "base-vs-one-1");
    let head: Answer | null = null;
    let last: Answer | null = null;
    for (const run of job) {
      const answer = (await uploadRun(request, slug, read("go", run, /\.txt$/), {
        branch: "perf/maplookup",
        commit: run.side === "base" ? "a1b2c3d4" : "f6e5d4c3",
        ab_job: "gh-42-1-bench",
        ab_side: run.side!,
        ab_pair: String(run.pair),
      })) as Answer & { ab: { pairs: number; next: string } };
      if (run.side === "head") head = answer;
      last = answer;
      // The job stops once a complete pair's answer stands, as `benchtrack ab` does.
      if (answer.ab.pairs === run.pair && answer.ab.next === "stop") break;
    }
    // The last upload answers as the job stands (a base run's answer is told from the newest head run).
    expect(last!.comparison.changes.filter((change) => change.status !== "improved").map((change) => change.endpoint)).toEqual([
      "example.com/microbench > BenchmarkMapLookup",
    ]);
    await page.goto(head!.url);
    const ab = page.getByTestId("gate-ab");
    await expect(ab).toContainText("A/B job gh-42-1-bench");
    await expect(ab).toContainText("judged against the job's own base runs, pair by pair");
    await expect(page.getByTestId("run-gate")).toContainText("A/B job gh-42-1-bench: its base runs");
    if (WRITES_SCREENSHOTS) await lookAt(page.getByTestId("run-gate"), "benchmark-gate-ab-run");
  });
});

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeForge } from "./fake-forges";
import type { RouteServer } from "@/server/testing/route-server";
import { git, isRunning, isWorktreeLeft, setUpAbStep, worktreeOf } from "./ab-step.fixture";

// `benchtrack ab` (scripts/ci/benchtrack-ab.mjs) when something goes wrong: a benchmark command or prepare
// step that fails, writes no result or is interrupted (Ctrl-C), no merge-base, nothing to compare, bad
// options; each said clearly, with the worktree removed. Set-up: ab-step.fixture.ts.
const { step, SCRIPT, origin, checkout, abEnv, runAb } = setUpAbStep();
const { work, uploadsSeen } = step;
let bench: RouteServer;
let github: FakeForge;
beforeAll(() => {
  ({ bench, github } = step);
});

describe("what goes wrong, said clearly", () => {
  it("a command that fails names the side, the pair, its exit status and the end of its stderr; the worktree is removed", async () => {
    // A pull_request checkout as GitHub makes it: its merge commit, not the pull request's head (a warning).
    const dir = checkout(origin.mainTip);
    git(
      dir,
      "-c",
      "user.name=ci",
      "-c",
      "user.email=ci@example.test",
      "merge",
      "-q",
      "--no-ff",
      "-m",
      "M",
      origin.slow,
    );
    const { env } = abEnv(dir, { pr: 34, head: origin.slow, branch: "feature/slow" });
    const command =
      'if [ "$BENCHTRACK_AB_SIDE" = head ]; then echo "goroutine 1 [running]:" >&2; echo "panic: boom" >&2; exit 3; fi; sh bench.sh';
    const before = uploadsSeen();
    const outcome = await runAb(dir, env, ["--", "sh", "-c", command]);
    expect(outcome.code).toBe(4);
    expect(outcome.stdout).toMatch(
      /^::warning title=Benchtrack::The checkout is [0-9a-f]{12}, not the pull request's head [0-9a-f]{12} /m,
    );
    expect(outcome.stderr).toContain(
      `::error title=Benchtrack::The benchmark command failed on the head side, pair 1 (exit status 3): sh -c ${command}`,
    );
    expect(outcome.stderr).toContain("The end of its stderr:%0A  | goroutine 1 [running]:%0A  | panic: boom");
    expect(uploadsSeen()).toBe(before + 1);
    expect(github.threads.has(34)).toBe(false);
    expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
  });

  it("a command that writes no result, one not found, and a prepare step that fails: exit 4, nothing uploaded", async () => {
    const dir = checkout(origin.slow);
    const cases: [string[], string][] = [
      [["--", "true"], "The benchmark command wrote no result on the base side, pair 1: it printed nothing on stdout"],
      [
        ["--output", "bench.txt", "--", "true"],
        "The benchmark command wrote no result on the base side, pair 1: it wrote no bench.txt",
      ],
      [
        ["--", "no-such-bench", "-x"],
        "The benchmark command failed on the base side, pair 1 (no-such-bench: command not found)",
      ],
      [
        ["--prepare", "echo building; exit 2", "--", "sh", "bench.sh"],
        "The prepare step failed on the base side (exit status 2): echo building; exit 2",
      ],
    ];
    const before = uploadsSeen();
    for (const [args, message] of cases) {
      const { env } = abEnv(dir, { pr: 35, head: origin.slow });
      const outcome = await runAb(dir, env, args);
      expect(outcome.code, outcome.stderr).toBe(4);
      expect(outcome.stderr).toContain(message);
      expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
    }
    expect(uploadsSeen()).toBe(before);
  });

  it("Ctrl-C stops the command and removes the worktree", async () => {
    const dir = checkout(origin.slow);
    const { env } = abEnv(dir, { pr: 36, head: origin.slow });
    const pidFile = path.join(work, "interrupted.pid");
    const started = Date.now();
    // Ctrl-C in a terminal, or a cancelled GitHub job: SIGINT to the step, once the command runs.
    const outcome = await runAb(dir, env, ["--", "sh", "-c", `echo $$ > ${pidFile}; exec sleep 60`], (child) => {
      const timer = setInterval(() => {
        if (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "") {
          clearInterval(timer);
          child.kill("SIGINT");
        }
      }, 50);
    });
    expect(outcome.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(outcome.stderr).toContain("SIGINT: stopping the command and removing the base worktree");
    expect(isWorktreeLeft(dir, worktreeOf(outcome.stdout))).toBe(false);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await expect.poll(() => isRunning(pid), { timeout: 5_000 }).toBe(false);
  });

  it("no merge-base (a shallow clone), nothing to compare, and bad options: exit 2 before anything runs", async () => {
    const shallow = checkout(origin.slow, { depth: 1 });
    const full = checkout(origin.base);
    const cases: [string, Record<string, string>, string[], RegExp][] = [
      [
        shallow,
        abEnv(shallow, { pr: 37, head: origin.slow }).env,
        ["--", "sh", "bench.sh"],
        /No merge-base: git could not find the merge-base of origin\/main and [0-9a-f]{12} \(check out with fetch-depth: 0/,
      ],
      [
        shallow,
        abEnv(shallow).env,
        ["--", "sh", "bench.sh"],
        /Not a pull request, so the base is HEAD\^, which this shallow checkout lacks: fetch the history \(actions\/checkout with fetch-depth: 0/,
      ],
      [
        full,
        abEnv(full, { pr: 38, head: origin.base }).env,
        ["--", "sh", "bench.sh"],
        /Nothing to compare: the base \(the merge-base of origin\/main and the pull request's head\) is HEAD, [0-9a-f]{12}, and the checkout has no uncommitted change/,
      ],
      [
        full,
        abEnv(full).env,
        ["--base", "no-such-branch", "--", "sh", "bench.sh"],
        /--base "no-such-branch" is not a commit of this checkout/,
      ],
      [
        full,
        abEnv(full, { pr: 38, head: origin.base, extra: { BENCHTRACK_BASE_COMMIT: "none" } }).env,
        ["--", "sh", "bench.sh"],
        /BENCHTRACK_BASE_COMMIT is none: an A\/B job needs a base/,
      ],
      [full, abEnv(full).env, ["--pairs", "3", "--", "sh", "bench.sh"], /unknown option "--pairs"/],
      [full, abEnv(full).env, ["sh", "bench.sh"], /unknown option "sh" \(the command goes after --\)/],
      [full, abEnv(full).env, ["--max-pairs", "3"], /no command: give it after --/],
      [full, abEnv(full).env, ["--max-pairs", "0", "--", "true"], /--max-pairs must be a whole number from 1 to 50/],
      [full, abEnv(full).env, ["--max-pairs=51", "--", "true"], /--max-pairs must be a whole number from 1 to 50/],
      [
        full,
        abEnv(full).env,
        ["--min-pairs", "4", "--max-pairs", "2", "--", "true"],
        /--min-pairs \(4\) is more than --max-pairs \(2\)/,
      ],
      [
        full,
        abEnv(full).env,
        ["--job", "my job", "--", "true"],
        /--job must be 1 to 128 letters, digits or \. _ : @ \/ -/,
      ],
      [full, abEnv(full).env, ["--ci", "bitbucket", "--", "true"], /--ci must be github, gitlab or local/],
      [full, abEnv(full, { extra: { BENCHTRACK_URL: "" } }).env, ["--", "true"], /BENCHTRACK_URL is not set/],
    ];
    const uploads = uploadsSeen();
    const calls = github.requests.length;
    for (const [dir, env, args, message] of cases) {
      const outcome = await runAb(dir, env, args);
      expect(outcome.code, `${args.join(" ")}: ${outcome.stderr}`).toBe(2);
      expect(outcome.stderr).toMatch(message);
      expect(outcome.stdout).not.toContain("Base worktree:");
    }
    expect(git(full, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(uploadsSeen()).toBe(uploads);
    expect(github.requests.length).toBe(calls);
  });

  it("--help prints the usage", async () => {
    const outcome = await step.runScript("", {}, { script: SCRIPT, args: ["--help"], cwd: work });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^usage: node scripts\/ci\/benchtrack-ab\.mjs \[options\] -- <command…>/);
  });
});

describe("what it read", () => {
  it("the answers it read matched the OpenAPI document", () => {
    expect(bench.mismatches).toEqual([]);
  });
});

import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { uniqueSlug } from "@/server/testing/databases";
import { setUpRouteTestDatabase } from "@/server/testing/rest-client";
import type { RouteServer } from "@/server/testing/route-server";
import { serveRoutes } from "@/server/testing/route-server";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import type { FakeForge } from "./fake-forges";
import { startFakeGithub, startFakeGitlab } from "./fake-forges";

// The CI script (scripts/ci/benchtrack-pr.mjs) run as CI runs it, a child process, against the real
// upload route behind a real socket (the database the environment names: embedded, or PostgreSQL with
// DATABASE_URL) and against small GitHub and GitLab servers that record what they receive.
const SCRIPT = path.resolve(import.meta.dirname, "benchtrack-pr.mjs");
const GITHUB_TOKEN = "ghs_FakeGithubToken0123456789";
const GITLAB_TOKEN = "glpat-FakeGitlabToken0123456789";
/**
 * Sets up, for one test file, what the CI step runs against: the upload route on a real socket, the
 * fake forges, a git checkout of a pull request, and a project with its upload token. Registers the
 * file's hooks; the servers are there once beforeAll has run.
 */
export function setUpPrStep() {
  // Its state is the call's: two files that share a worker's modules (vitest.config.ts) each get their own.
  const SLUG = uniqueSlug("ci-comment");
  let uploadToken = "";

  let bench: RouteServer;
  let github: FakeForge;
  let gitlab: FakeForge;
  const work = mkdtempSync(path.join(os.tmpdir(), "benchtrack-pr-"));

  /** A repository as a pull_request checkout sees it: main moved on after the branch forked, HEAD is GitHub's merge commit. */
  const git = { fork: "", heads: [] as string[], mainTip: "", merge: "", dir: path.join(work, "repo") };

  function sh(...args: string[]): string {
    return execFileSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.test", ...args], {
      cwd: git.dir,
      encoding: "utf8",
    }).trim();
  }

  function commit(message: string): string {
    sh("commit", "-q", "--allow-empty", "-m", message);
    return sh("rev-parse", "HEAD");
  }

  setUpRouteTestDatabase();

  beforeAll(async () => {
    await createProjectThroughApi(SLUG);
    uploadToken = await mintProjectToken(SLUG, "ci");
    bench = await serveRoutes([
      { path: /^\/api\/v1\/projects\/(?<project>[^/]+)\/runs$/, methods: { POST: uploadRun } },
    ]);
    github = await startFakeGithub(GITHUB_TOKEN);
    gitlab = await startFakeGitlab(GITLAB_TOKEN);

    mkdirSync(git.dir);
    sh("init", "-q", "-b", "main");
    git.fork = commit("A: where the pull request forks");
    sh("checkout", "-q", "-b", "feature/x");
    git.heads = [commit("B1"), commit("B2"), commit("B3")];
    sh("checkout", "-q", "main");
    git.mainTip = commit("C: main moves on");
    sh("update-ref", "refs/remotes/origin/main", git.mainTip);
    sh("checkout", "-q", "--detach", git.mainTip);
    sh("merge", "-q", "--no-ff", "-m", "M: GitHub's merge commit", git.heads[2]!);
    git.merge = sh("rev-parse", "HEAD");
  });

  afterAll(async () => {
    await Promise.all([bench?.close(), github?.close(), gitlab?.close()]);
  });

  function resultFile(name: string, p95: number, label = "nightly", hour = 0): string {
    const file = path.join(work, `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        schema: "benchtrack/v1",
        label,
        startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
        endpoints: [{ name: "GetListing", requests: 1000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }],
      }),
    );
    return file;
  }

  interface Outcome {
    code: number | null;
    stdout: string;
    stderr: string;
  }

  /**
   * Runs a CI script as CI runs it: benchtrack-pr.mjs with `mode` (github or gitlab), or another
   * (`script`) with its own arguments, or another program than node (`command`, with `args`);
   * `onSpawn` sees the child (to signal it).
   */
  async function runScript(
    mode: string,
    env: Record<string, string>,
    options: {
      script?: string;
      args?: string[];
      cwd?: string;
      onSpawn?: (child: ChildProcess) => void;
      command?: string;
    } = {},
  ): Promise<Outcome> {
    const program = options.command ?? process.execPath;
    const child = spawn(
      program,
      [...(options.command ? [] : [options.script ?? SCRIPT]), ...(options.args ?? [mode])],
      {
        env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", ...env },
        cwd: options.cwd ?? work,
      },
    );
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    // Whatever happened, no token is in what the job log would show.
    for (const secret of [uploadToken, GITHUB_TOKEN, GITLAB_TOKEN, env.BENCHTRACK_TOKEN, env.GITHUB_TOKEN].filter(
      (value) => value && value.length > 8,
    )) {
      expect(stdout + stderr).not.toContain(secret!);
    }
    return { code, stdout, stderr };
  }

  let pushes = 0;

  /** A GitHub Actions step's environment: a pull_request event of `pr` at `head` (or a push to main without `pr`). */
  function githubEnv(
    file: string,
    options: { pr?: number; head?: string; label?: string; extra?: Record<string, string> } = {},
  ): Record<string, string> {
    pushes += 1;
    const event = path.join(work, `event-${pushes}.json`);
    const isPull = options.pr !== undefined;
    writeFileSync(
      event,
      JSON.stringify(
        isPull
          ? { pull_request: { number: options.pr, head: { sha: options.head ?? git.heads[0] }, base: { ref: "main" } } }
          : { ref: "refs/heads/main" },
      ),
    );
    return {
      GITHUB_ACTIONS: "true",
      BENCHTRACK_URL: bench.url,
      BENCHTRACK_PROJECT: SLUG,
      BENCHTRACK_TOKEN: uploadToken,
      BENCHTRACK_FILES: file,
      BENCHTRACK_LABEL: options.label ?? "nightly",
      GITHUB_TOKEN,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: "https://github.test",
      GITHUB_REPOSITORY: "acme/shop",
      GITHUB_RUN_ID: String(5000 + pushes),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_JOB: "perf",
      GITHUB_EVENT_NAME: isPull ? "pull_request" : "push",
      GITHUB_EVENT_PATH: event,
      GITHUB_BASE_REF: isPull ? "main" : "",
      GITHUB_HEAD_REF: isPull ? "feature/x" : "",
      GITHUB_REF_NAME: isPull ? `${options.pr}/merge` : "main",
      GITHUB_SHA: isPull ? git.merge : git.mainTip,
      GITHUB_WORKSPACE: git.dir,
      GITHUB_OUTPUT: path.join(work, `output-${pushes}.txt`),
      GITHUB_STEP_SUMMARY: path.join(work, `summary-${pushes}.md`),
      ...options.extra,
    };
  }

  /** The default branch's history a pull request is judged against: five nightly runs the step uploads on main. */
  async function uploadMainHistory() {
    for (const [hour, p95] of [20.1, 19.8, 20.4, 19.9, 20.2].entries()) {
      const outcome = await runScript("github", githubEnv(resultFile(`main-${hour}`, p95, "nightly", hour)));
      expect(outcome.code).toBe(0);
    }
  }

  const MARKER = () => `<!-- benchtrack:${SLUG}:custom:nightly -->`;
  /** The commit status's name for a series (label) of this file's project: one per living comment. */
  const CONTEXT = (label = "nightly") => `benchtrack/${SLUG}/custom:${label}`;
  /** The run's page, as the step printed it from the upload's answer. */
  const runUrlOf = (stdout: string) => /^Benchtrack: \S+ · \S+ run (\S+)/m.exec(stdout)?.[1] ?? null;
  /** A commit the checkout does not have (send BENCHTRACK_BASE_COMMIT=none with it): statuses of one test apart. */
  const otherCommit = (n: number) => n.toString(16).padStart(40, "e");
  const entryIds = (body: string) =>
    [...body.matchAll(/^<!-- benchtrack:entry run=(\S+) -->$/gm)].map((match) => match[1]);
  const uploadsSeen = () => bench.requests.filter((request) => request.method === "POST").length;

  return {
    SLUG,
    GITHUB_TOKEN,
    GITLAB_TOKEN,
    git,
    work,
    get bench() {
      return bench;
    },
    get github() {
      return github;
    },
    get gitlab() {
      return gitlab;
    },
    get uploadToken() {
      return uploadToken;
    },
    /** The next CI job's number (each push or job gets its own). */
    nextPush: () => ++pushes,
    resultFile,
    runScript,
    githubEnv,
    uploadMainHistory,
    MARKER,
    CONTEXT,
    runUrlOf,
    otherCommit,
    entryIds,
    uploadsSeen,
  };
}

import { describe, expect, it } from "vitest";
import type { RunSetup } from "./environment-diff";
import { describeCommits, describeDifference, diffEnvironments } from "./environment-diff";

/** A k6 nightly on the perf host, as the CI of the listings service uploads it. */
function k6Nightly(overrides: Partial<RunSetup> = {}): RunSetup {
  return {
    tool: "k6",
    toolVersion: "0.52.0",
    protocol: "http",
    hostName: "perf-1",
    hostCpus: 16,
    hostMemoryGb: 32,
    appVersion: "1.4.2",
    config: { vus: 50, duration: "30s", execution: "local" },
    attributes: { db: "postgres15", region: "eu-west-1" },
    commit: "9f1c2e7aa41b",
    ...overrides,
  };
}

const GITHUB = "https://github.com/acme/listings";

describe("diffEnvironments", () => {
  it("folds what both sides share into one line and lists only the app version and the commits as changed", () => {
    const diff = diffEnvironments([k6Nightly()], [k6Nightly({ appVersion: "1.5.0", commit: "4b1d2aa0c9d3" })], {
      repoUrl: GITHUB,
    });
    expect(diff.same).toEqual([
      "tool k6 0.52.0",
      "protocol http",
      "load vus 50, duration 30s",
      "host perf-1 (16 CPUs, 32 GB)",
    ]);
    expect(diff.differences).toEqual([
      { field: "appVersion", name: "app version", base: ["1.4.2"], head: ["1.5.0"], isUnfair: false },
    ]);
    expect(diff.unfair).toEqual([]);
    expect(diff.commits).toEqual({
      base: [{ sha: "9f1c2e7aa41b", url: `${GITHUB}/commit/9f1c2e7aa41b` }],
      head: [{ sha: "4b1d2aa0c9d3", url: `${GITHUB}/commit/4b1d2aa0c9d3` }],
      diffUrl: `${GITHUB}/compare/9f1c2e7aa41b...4b1d2aa0c9d3`,
      mixed: [],
    });
    expect(describeCommits(diff.commits!)).toBe("9f1c2e7 → 4b1d2aa");
  });

  it("says the comparison is unfair when the head ran on a smaller host with more VUs, and says what differs", () => {
    const head = k6Nightly({
      toolVersion: "0.54.0",
      hostName: "perf-small-3",
      hostCpus: 4,
      hostMemoryGb: 8,
      config: { vus: 100, duration: "30s", execution: "local" },
    });
    const diff = diffEnvironments([k6Nightly(), k6Nightly()], [head, head]);
    expect(diff.differences.map(describeDifference)).toEqual([
      "vus 50 → 100",
      "host size 16 CPUs, 32 GB → 4 CPUs, 8 GB",
      "tool version 0.52.0 → 0.54.0",
      "host perf-1 → perf-small-3",
    ]);
    expect(diff.differences.map((difference) => difference.isUnfair)).toEqual([true, true, false, false]);
    expect(diff.unfair).toEqual([
      "Different load profiles (base → head): vus 50 → 100; latency depends on the load, so the change may come from the load rather than the code.",
      "Different host sizes (base → head): 16 CPUs, 32 GB → 4 CPUs, 8 GB; a bigger or smaller machine changes the numbers by itself.",
    ]);
    expect(diff.same).toEqual(["tool k6", "protocol http", "load duration 30s", "app version 1.4.2", "commit 9f1c2e7"]);
    expect(diff.commits).toBeNull();
  });

  it("names another tool with its version, and another protocol, as unfair", () => {
    const locust = k6Nightly({ tool: "locust", toolVersion: "2.12.2", config: { users: 50 } });
    const ghz = k6Nightly({ tool: "ghz", toolVersion: "0.120.0", protocol: "grpc", config: { concurrency: 50 } });
    expect(diffEnvironments([k6Nightly()], [locust]).unfair).toEqual([
      "Different tools (base → head): k6 0.52.0 → locust 2.12.2; different clients measure differently, so the numbers are not comparable.",
    ]);
    const grpc = diffEnvironments([k6Nightly()], [ghz]);
    expect(grpc.unfair.map((sentence) => sentence.split(" (")[0])).toEqual(["Different tools", "Different protocols"]);
    expect(grpc.differences.find((difference) => difference.field === "protocol")).toMatchObject({
      base: ["http"],
      head: ["grpc"],
    });
    // Load keys the tools name differently (vus, concurrency) are not a difference: neither side sets the other's.
    expect(grpc.differences.some((difference) => difference.field === "load")).toBe(false);
  });

  it("lists another host of the same size without calling it unfair (CI runners come and go)", () => {
    const diff = diffEnvironments([k6Nightly({ hostName: "runner-a1" })], [k6Nightly({ hostName: "runner-b7" })]);
    expect(diff.unfair).toEqual([]);
    expect(diff.differences.map(describeDifference)).toEqual(["host runner-a1 → runner-b7"]);
    expect(diff.same).toContain("host size 16 CPUs, 32 GB");
  });

  it("lists a field only one side states, but never as unfair", () => {
    const bare = k6Nightly({ hostName: null, hostCpus: null, hostMemoryGb: null, protocol: null, appVersion: null });
    const diff = diffEnvironments([bare], [k6Nightly()]);
    expect(diff.unfair).toEqual([]);
    expect(diff.differences.map(describeDifference)).toEqual(["host unknown → perf-1", "app version unknown → 1.4.2"]);
    expect(
      diff.differences.some((difference) => difference.field === "hostSize" || difference.field === "protocol"),
    ).toBe(false);
  });

  it("lists changed settings and attributes, key by key", () => {
    const diff = diffEnvironments(
      [k6Nightly()],
      [
        k6Nightly({
          config: { vus: 50, duration: "30s", execution: "cloud" },
          attributes: { db: "postgres16", region: "eu-west-1", cache: "on" },
        }),
      ],
    );
    expect(diff.differences.map(describeDifference)).toEqual([
      "setting execution local → cloud",
      "attribute cache unknown → on",
      "attribute db postgres15 → postgres16",
    ]);
    expect(diff.unfair).toEqual([]);
  });

  it("for rounds: says when a side mixes commits, links each commit but no single diff, GitLab style", () => {
    const base = ["9f1c2e7aa41b", "9f1c2e7aa41b", "9f1c2e7aa41b"].map((commit) => k6Nightly({ commit }));
    const head = ["4b1d2aa0c9d3", "5c2e3bb1d0e4", "4b1d2aa0c9d3"].map((commit) => k6Nightly({ commit }));
    const diff = diffEnvironments(base, head, { repoUrl: "https://gitlab.com/acme/listings" });
    expect(diff.commits).toMatchObject({ mixed: ["head"], diffUrl: null });
    expect(diff.commits?.head.map((ref) => ref.url)).toEqual([
      "https://gitlab.com/acme/listings/commit/4b1d2aa0c9d3",
      "https://gitlab.com/acme/listings/commit/5c2e3bb1d0e4",
    ]);
    expect(describeCommits(diff.commits!)).toBe("9f1c2e7 → 2 commits (head mixes 4b1d2aa, 5c2e3bb)");
    const single = diffEnvironments([base[0]!], [head[0]!], { repoUrl: "https://gitlab.com/acme/listings" });
    expect(single.commits?.diffUrl).toBe("https://gitlab.com/acme/listings/-/compare/9f1c2e7aa41b...4b1d2aa0c9d3");
  });

  it("links nothing without a safe repository URL", () => {
    const diff = diffEnvironments([k6Nightly()], [k6Nightly({ commit: "4b1d2aa0c9d3" })], {
      repoUrl: "javascript:alert(1)",
    });
    expect(diff.commits).toMatchObject({ diffUrl: null, base: [{ sha: "9f1c2e7aa41b", url: null }] });
  });

  it("compares sides as sets: two groups that both alternate hosts are alike", () => {
    const sides = [k6Nightly({ hostName: "perf-1" }), k6Nightly({ hostName: "perf-2" })];
    const diff = diffEnvironments(sides, [...sides].reverse());
    expect(diff.differences).toEqual([]);
    expect(diff.same).toContain("host perf-1, perf-2 (16 CPUs, 32 GB)");
  });
});

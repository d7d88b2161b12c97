/**
 * What changed between base and head besides the code: tool and version, protocol, load profile, host,
 * app version, settings, attributes and commits, as the compare page and its Markdown show them. Only
 * differences are listed; what both sides share folds into one line ("same tool k6 0.52.0, host perf-1
 * (16 CPUs, 32 GB)"). A difference that alone can move the numbers (another tool, protocol, load profile
 * or host size) makes the comparison unfair, and says so in words (docs/statistics.md, "What changed").
 *
 * A side is a set of runs: each field's value on a side is the set of its runs' values, so a side that
 * mixes two hosts shows both. A value only one side states is listed but never held against the
 * comparison (tools report different fields), except for the unfair kinds, which need both sides known.
 */
import { formatNumber } from "../format";
import { commitUrl, compareCommitsUrl, safeHttpUrl } from "../urls";
import { compareLoadProfiles, LOAD_CONFIG_KEYS } from "./load-profile";

/** What a run says of how it was measured; ComparableRun carries it. */
export interface RunSetup {
  tool: string;
  toolVersion?: string | null;
  /** "http", "grpc"… when the tool says. */
  protocol?: string | null;
  hostName: string | null;
  hostCpus?: number | null;
  hostMemoryGb?: number | null;
  /** The hardware it was measured on (docs/benchmarks.md, "Testbeds"); null or absent: none named. */
  testbed?: string | null;
  appVersion?: string | null;
  config: Readonly<Record<string, string | number | boolean>>;
  attributes?: Readonly<Record<string, string>>;
  commit?: string | null;
}

export type SetupField =
  "tool" | "protocol" | "load" | "testbed" | "hostSize" | "toolVersion" | "host" | "appVersion" | "setting" | "attribute";

export interface SetupDifference {
  field: SetupField;
  /** What differs, in words: "tool version", "vus", "host size", "attribute db", "setting url". */
  name: string;
  /** Each side's distinct values as text; several when a side mixes them, none when no run says. */
  base: string[];
  head: string[];
  /** Alone, this difference can move the numbers: the change may come from it rather than the code. */
  isUnfair: boolean;
}

export interface CommitRef {
  sha: string;
  /** The commit on the repository's host, when the project's repository URL is known. */
  url: string | null;
}

export interface CommitChange {
  base: CommitRef[];
  head: CommitRef[];
  /** The diff base...head on the repository's host, when it is known and each side is one commit. */
  diffUrl: string | null;
  /** Sides whose runs come from several commits: their numbers mix versions of the code. */
  mixed: ("base" | "head")[];
}

export interface EnvironmentDiff {
  /** What both sides share, one phrase each: "tool k6 0.52.0", "load vus 10", "host perf-1 (16 CPUs, 32 GB)". */
  same: string[];
  /** Only what differs, unfair kinds first. */
  differences: SetupDifference[];
  /** One sentence per unfair difference, saying what differs and why it matters: the warning by the verdict. */
  unfair: string[];
  /** null when both sides are the same commit(s) (then in `same`) or no run names one. */
  commits: CommitChange | null;
}

const UNFAIR_ORDER: readonly SetupField[] = ["tool", "protocol", "load", "testbed", "hostSize"];

type Value = string | number | boolean | null | undefined;

function distinct(values: readonly Value[]): string[] {
  return [...new Set(values.filter((value) => value !== null && value !== undefined && value !== "").map(String))];
}

function isSameSet(base: readonly string[], head: readonly string[]): boolean {
  return base.length === head.length && base.every((value) => head.includes(value));
}

/** A side's values as text: "0.52.0", "perf-1, perf-2", "unknown". */
export function describeValues(values: readonly string[]): string {
  return values.length === 0 ? "unknown" : values.join(", ");
}

/** One difference in a line: "tool version 0.51.0 → 0.52.0", "host perf-1 → perf-2, perf-3". */
export function describeDifference(difference: SetupDifference): string {
  return `${difference.name} ${describeValues(difference.base)} → ${describeValues(difference.head)}`;
}

export function shortCommit(sha: string): string {
  return /^[0-9a-f]{8,}$/i.test(sha) ? sha.slice(0, 7) : sha;
}

function hostSize(run: RunSetup): string | null {
  const parts = [
    run.hostCpus === null || run.hostCpus === undefined
      ? null
      : `${formatNumber(run.hostCpus, 0)} CPU${run.hostCpus === 1 ? "" : "s"}`,
    run.hostMemoryGb === null || run.hostMemoryGb === undefined ? null : `${formatNumber(run.hostMemoryGb, 1)} GB`,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}

export function diffEnvironments(
  baseRuns: readonly RunSetup[],
  headRuns: readonly RunSetup[],
  options: { repoUrl?: string | null } = {},
): EnvironmentDiff {
  const same: string[] = [];
  const differences: SetupDifference[] = [];
  const sides = (read: (run: RunSetup) => Value) => ({
    base: distinct(baseRuns.map(read)),
    head: distinct(headRuns.map(read)),
  });
  /** Lists a difference of `read` (unfair ones only when both sides are known), or returns the shared values. */
  const compare = (
    field: SetupField,
    name: string,
    read: (run: RunSetup) => Value,
    isUnfair = false,
  ): string[] | null => {
    const { base, head } = sides(read);
    if (base.length === 0 && head.length === 0) return null;
    if (isSameSet(base, head)) return base;
    if (isUnfair && (base.length === 0 || head.length === 0)) return null;
    differences.push({ field, name, base, head, isUnfair });
    return null;
  };

  // The tool, with its version when both sides agree on it; another tool is named with its version.
  const tools = sides((run) => run.tool);
  if (isSameSet(tools.base, tools.head)) {
    const versions = compare("toolVersion", "tool version", (run) => run.toolVersion);
    same.push(`tool ${tools.base.join(", ")}${versions ? ` ${versions.join(", ")}` : ""}`);
  } else {
    compare("tool", "tool", (run) => [run.tool, run.toolVersion].filter(Boolean).join(" "), true);
  }

  const protocols = compare("protocol", "protocol", (run) => run.protocol, true);
  if (protocols) same.push(`protocol ${protocols.join(", ")}`);

  // The load profile: the keys of load-profile.ts both sides set.
  const load = compareLoadProfiles(
    baseRuns.map((run) => run.config),
    headRuns.map((run) => run.config),
  );
  for (const { key, base, head } of load.different)
    differences.push({ field: "load", name: key, base, head, isUnfair: true });
  if (load.same.length > 0)
    same.push(`load ${load.same.map(({ key, base }) => `${key} ${base.join(", ")}`).join(", ")}`);

  // The testbed: another one is other hardware, so the numbers are not comparable. A side that names
  // none is listed too (its hardware is unknown), but only two named testbeds are held to be unfair.
  const testbeds = sides((run) => run.testbed);
  if (testbeds.base.length > 0 || testbeds.head.length > 0) {
    if (isSameSet(testbeds.base, testbeds.head)) same.push(`testbed ${testbeds.base.join(", ")}`);
    else
      differences.push({
        field: "testbed",
        name: "testbed",
        base: testbeds.base.length > 0 ? testbeds.base : ["none named"],
        head: testbeds.head.length > 0 ? testbeds.head : ["none named"],
        isUnfair: testbeds.base.length > 0 && testbeds.head.length > 0,
      });
  }

  // The host: its size can move the numbers, its name alone (CI runners come and go) cannot.
  const cpus = sides((run) => run.hostCpus);
  const memory = sides((run) => run.hostMemoryGb);
  const isKnownOnBoth = (values: { base: string[]; head: string[] }) =>
    values.base.length > 0 && values.head.length > 0;
  const isSizeDifferent =
    (isKnownOnBoth(cpus) && !isSameSet(cpus.base, cpus.head)) ||
    (isKnownOnBoth(memory) && !isSameSet(memory.base, memory.head));
  const sizes = sides(hostSize);
  if (isSizeDifferent) differences.push({ field: "hostSize", name: "host size", ...sizes, isUnfair: true });
  const names = compare("host", "host", (run) => run.hostName);
  const sharedSize =
    !isSizeDifferent && sizes.base.length > 0 && isSameSet(sizes.base, sizes.head) ? sizes.base.join("; ") : null;
  if (names) same.push(`host ${names.join(", ")}${sharedSize ? ` (${sharedSize})` : ""}`);
  else if (sharedSize) same.push(`host size ${sharedSize}`);

  const appVersions = compare("appVersion", "app version", (run) => run.appVersion);
  if (appVersions) same.push(`app version ${appVersions.join(", ")}`);

  // Other settings and attributes: listed when they differ, never folded into the "same" line (too long).
  const settingKeys = new Set(
    [...baseRuns, ...headRuns]
      .flatMap((run) => Object.keys(run.config))
      .filter((key) => key !== "protocol" && !(LOAD_CONFIG_KEYS as readonly string[]).includes(key)),
  );
  for (const key of [...settingKeys].sort()) {
    const values = sides((run) => run.config[key]);
    // Like load keys, a setting only one side states is not a difference: tools state different settings.
    if (isKnownOnBoth(values) && !isSameSet(values.base, values.head))
      differences.push({ field: "setting", name: `setting ${key}`, ...values, isUnfair: false });
  }
  const attributeKeys = new Set([...baseRuns, ...headRuns].flatMap((run) => Object.keys(run.attributes ?? {})));
  for (const key of [...attributeKeys].sort()) compare("attribute", `attribute ${key}`, (run) => run.attributes?.[key]);

  const commits = diffCommits(baseRuns, headRuns, options.repoUrl ?? null);
  if (commits === null) {
    const shared = distinct(baseRuns.map((run) => run.commit));
    if (shared.length > 0) same.push(`commit ${shared.map(shortCommit).join(", ")}`);
  }

  const ordered = [
    ...UNFAIR_ORDER.flatMap((field) =>
      differences.filter((difference) => difference.isUnfair && difference.field === field),
    ),
    ...differences.filter((difference) => !difference.isUnfair),
  ];
  return { same, differences: ordered, unfair: unfairSentences(ordered), commits };
}

function diffCommits(
  baseRuns: readonly RunSetup[],
  headRuns: readonly RunSetup[],
  repoUrl: string | null,
): CommitChange | null {
  const base = distinct(baseRuns.map((run) => run.commit));
  const head = distinct(headRuns.map((run) => run.commit));
  if ((base.length === 0 && head.length === 0) || isSameSet(base, head)) return null;
  const repository = safeHttpUrl(repoUrl);
  const ref = (sha: string): CommitRef => ({ sha, url: repository ? commitUrl(repository, sha) : null });
  const [onlyBase] = base;
  const [onlyHead] = head;
  return {
    base: base.map(ref),
    head: head.map(ref),
    diffUrl:
      repository && base.length === 1 && head.length === 1 && onlyBase && onlyHead
        ? compareCommitsUrl(repository, onlyBase, onlyHead)
        : null,
    mixed: (["base", "head"] as const).filter((side) => (side === "base" ? base : head).length > 1),
  };
}

/** The commits in words: "9f1c2e7 → 4b1d2aa", "9f1c2e7 → 3 commits (head mixes 4b1d2aa, 5c2e3bb, 6d3f4cc)". */
export function describeCommits(commits: CommitChange): string {
  const side = (refs: readonly CommitRef[]) =>
    refs.length === 0 ? "unknown" : refs.length === 1 ? shortCommit(refs[0]!.sha) : `${refs.length} commits`;
  const mixes = commits.mixed.map(
    (which) => `${which} mixes ${commits[which].map((ref) => shortCommit(ref.sha)).join(", ")}`,
  );
  return `${side(commits.base)} → ${side(commits.head)}${mixes.length > 0 ? ` (${mixes.join("; ")})` : ""}`;
}

const WHY_UNFAIR: Record<"tool" | "protocol" | "load" | "hostSize", string> = {
  tool: "different clients measure differently, so the numbers are not comparable",
  protocol: "the requests go through different stacks",
  load: "latency depends on the load, so the change may come from the load rather than the code",
  hostSize: "a bigger or smaller machine changes the numbers by itself",
};

function unfairSentences(differences: readonly SetupDifference[]): string[] {
  const sentence = (field: keyof typeof WHY_UNFAIR, title: string) => {
    const found = differences.filter((difference) => difference.isUnfair && difference.field === field);
    if (found.length === 0) return [];
    const what = found
      .map(
        (difference) =>
          `${field === "load" ? `${difference.name} ` : ""}${describeValues(difference.base)} → ${describeValues(difference.head)}`,
      )
      .join(", ");
    return [`${title} (base → head): ${what}; ${WHY_UNFAIR[field]}.`];
  };
  return [
    ...sentence("tool", "Different tools"),
    ...sentence("protocol", "Different protocols"),
    ...sentence("load", "Different load profiles"),
    ...sentence("hostSize", "Different host sizes"),
  ];
}

/**
 * Which branches a trend page draws (docs/trends.md, "Branches"). A series is one branch's runs: a pull
 * request's runs and the default branch's drawn as one line zig-zag between two different things. So a
 * page draws, by default, the project's default branch (the branch the gate, the badges and the
 * regression inbox judge); a link from a run names that run's branch; the URL may name several branches
 * (`?branch=main&branch=feature%2Fx`: one line each), the runs uploaded without a branch (`branch=none`),
 * or every run as one mixed series (`branch=all`), as asked.
 *
 * A project none of whose runs names a branch has only one series to draw: its runs, all of them. Its
 * page draws them and says why (the default branch would match nothing, which would hide every run).
 */

/** `branch=all`: every run, whatever its branch, as one mixed series (the words say so). */
export const ALL_BRANCHES = "all";
/** `branch=none`: the runs uploaded without a branch. */
export const NO_BRANCH = "none";
/** Lines a page draws at most, one per branch: more would not be told apart by colour. */
export const MAX_TREND_BRANCHES = 5;

/**
 * The branches a page draws. `every`: all runs as one series, because the URL asked (`asked`) or because
 * no run of the project names a branch (`no-branch-data`). `some`: these branches (null: the runs naming
 * none), one line each, chosen by the URL (`asked`) or the project's default branch (`default`).
 */
export type TrendBranches =
  | { kind: "every"; why: "asked" | "no-branch-data" }
  | { kind: "some"; branches: (string | null)[]; why: "asked" | "default" };

/**
 * The branches drawn for the URL's `branch` values: none named, the default branch (or every run when
 * the project has no branch data); `all` anywhere, every run; else the named ones in the URL's order,
 * each once, `none` as null, at most MAX_TREND_BRANCHES.
 */
export function resolveTrendBranches(
  asked: readonly string[],
  defaultBranch: string,
  projectBranches: readonly string[],
): TrendBranches {
  if (asked.includes(ALL_BRANCHES)) return { kind: "every", why: "asked" };
  if (asked.length === 0) {
    return projectBranches.length === 0 ? { kind: "every", why: "no-branch-data" } : { kind: "some", branches: [defaultBranch], why: "default" };
  }
  const branches = [...new Set(asked)].slice(0, MAX_TREND_BRANCHES).map((name) => (name === NO_BRANCH ? null : name));
  return { kind: "some", branches, why: "asked" };
}

/** The branch values a history reads: null for every run, else the list (null in it: runs naming none). */
export function branchFilterOf(branches: TrendBranches): (string | null)[] | null {
  return branches.kind === "every" ? null : branches.branches;
}

/** Whether the page draws exactly the default branch: the series the gate judges, with its band and threshold. */
export function isDefaultBranchOnly(branches: TrendBranches, defaultBranch: string): boolean {
  return branches.kind === "some" && branches.branches.length === 1 && branches.branches[0] === defaultBranch;
}

/** The base branch an overlay is drawn over: the page's first named branch, else the default branch. */
export function overlayBaseBranch(branches: TrendBranches, defaultBranch: string): string {
  return (branches.kind === "some" ? branches.branches[0] : null) ?? defaultBranch;
}

/** A branch as a page names it: the runs naming none are "no branch". */
export function branchName(branch: string | null): string {
  return branch ?? "no branch";
}

/** A branch as the URL names it (`none` for the runs naming none). */
export function branchUrlValue(branch: string | null): string {
  return branch ?? NO_BRANCH;
}

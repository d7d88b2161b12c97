/**
 * A set of runs named as people name them, not by ids: "baseline #1–5 on main@6bb136f",
 * "ManagedAsync #1–3 on feature/managed-async", "3 runs on main". Used by the compare page's header,
 * its Markdown and its preview image, where a side given as run ids would otherwise read as a hash list.
 */
export interface NamedRun {
  label: string | null;
  round: number | null;
  branch: string | null;
  commit: string | null;
}

/** 1,2,3,5 → "1–3, 5". */
export function compressRounds(rounds: readonly number[]): string {
  const sorted = [...new Set(rounds)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    ranges.push(end > start ? `${sorted[start]}–${sorted[end]}` : String(sorted[start]));
    start = end + 1;
  }
  return ranges.join(", ");
}

function labelPart(label: string | null, runs: readonly NamedRun[]): string {
  const rounds = runs.flatMap((run) => (run.round === null ? [] : [run.round]));
  const count = `${runs.length} run${runs.length === 1 ? "" : "s"}`;
  if (label === null) return count;
  if (rounds.length === runs.length && new Set(rounds).size === rounds.length) return `${label} #${compressRounds(rounds)}`;
  return `${label} (${count})`;
}

export function describeRunSet(runs: readonly NamedRun[]): string {
  if (runs.length === 0) return "no runs";
  const byLabel = new Map<string | null, NamedRun[]>();
  for (const run of runs) byLabel.set(run.label, [...(byLabel.get(run.label) ?? []), run]);
  const labels = [...byLabel].map(([label, members]) => labelPart(label, members)).join(" + ");
  const branches = [...new Set(runs.map((run) => run.branch))];
  const commits = [...new Set(runs.map((run) => run.commit))];
  const commit = commits.length === 1 && commits[0] ? `@${commits[0].slice(0, 7)}` : "";
  const where =
    branches.length === 1 && branches[0] !== null
      ? ` on ${branches[0]}${commit}`
      : branches.length > 1
        ? ` on ${branches.length} branches`
        : commit
          ? ` ${commit}`
          : "";
  return `${labels}${where}`;
}

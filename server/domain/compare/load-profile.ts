/**
 * The load a run was driven with: the keys of its load configuration that set how hard the service is
 * pushed (virtual users, concurrency, request rate, duration…). Two runs driven differently measure
 * different things: a baseline run at 10 VUs says nothing about a head run at 50.
 */
export const LOAD_CONFIG_KEYS = ["vus", "vus_max", "concurrency", "connections", "rate", "rps", "duration", "users", "spawn_rate"] as const;

export type LoadConfigKey = (typeof LOAD_CONFIG_KEYS)[number];

type Config = Readonly<Record<string, string | number | boolean>>;

/** One load key as two sets of runs set it: the distinct values of each side, as text, in first-seen order. */
export interface LoadKeyValues {
  key: LoadConfigKey;
  base: string[];
  head: string[];
}

function distinctValues(configs: readonly Config[], key: string): string[] {
  return [...new Set(configs.flatMap((config) => (config[key] === undefined ? [] : [String(config[key])])))];
}

/**
 * Every load key both sides set, split into those whose values are the same on both sides (as sets: two
 * groups that both alternate 10 and 20 VUs are alike) and those that differ. A key only one side sets is
 * not held against it: tools report different keys.
 */
export function compareLoadProfiles(base: readonly Config[], head: readonly Config[]): { same: LoadKeyValues[]; different: LoadKeyValues[] } {
  const same: LoadKeyValues[] = [];
  const different: LoadKeyValues[] = [];
  for (const key of LOAD_CONFIG_KEYS) {
    const values = { key, base: distinctValues(base, key), head: distinctValues(head, key) };
    if (values.base.length === 0 || values.head.length === 0) continue;
    const isSame = values.base.length === values.head.length && values.base.every((value) => values.head.includes(value));
    (isSame ? same : different).push(values);
  }
  return { same, different };
}

/**
 * How `other`'s load profile differs from `reference`'s ("vus 50 vs 10"), or null when every load key
 * both set has the same value (a key only one of them sets is not held against it).
 */
export function loadProfileDifference(reference: Config, other: Config): string | null {
  // Most runs of a series share their load: said without building the sets (the gate asks for every run it scans).
  const isSameAt = (key: string) => reference[key] === undefined || other[key] === undefined || String(reference[key]) === String(other[key]);
  if (LOAD_CONFIG_KEYS.every(isSameAt)) return null;
  const { different } = compareLoadProfiles([reference], [other]);
  return different.length > 0 ? different.map(({ key, base, head }) => `${key} ${head.join(", ")} vs ${base.join(", ")}`).join(", ") : null;
}

/** Numbers in increasing order, then text: "vus 10, 20, 40" rather than first-seen order. */
function byValue(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
}

/**
 * How a run's load differs from other runs', in words, by the load keys that differ (in LOAD_CONFIG_KEYS
 * order, as loadProfileDifference decides): the run's own values ("vus 10"), the others' ("vus 20, 30,
 * 40") and how many distinct loads they are; null when none differs.
 */
export function describeLoadDifference(
  reference: Config,
  others: readonly Config[],
): { own: string; others: string; loads: number } | null {
  const values = new Map<string, Set<string>>();
  const loads = new Set<string>();
  for (const other of others) {
    const different = compareLoadProfiles([reference], [other]).different;
    if (different.length > 0) loads.add(JSON.stringify(different.map(({ key, head }) => [key, head])));
    for (const { key, head } of different) {
      const seen = values.get(key) ?? new Set<string>();
      for (const value of head) seen.add(value);
      values.set(key, seen);
    }
  }
  const keys = LOAD_CONFIG_KEYS.filter((key) => values.has(key));
  if (keys.length === 0) return null;
  return {
    own: keys.map((key) => `${key} ${String(reference[key])}`).join(", "),
    others: keys.map((key) => `${key} ${[...values.get(key)!].sort(byValue).join(", ")}`).join("; "),
    loads: loads.size,
  };
}

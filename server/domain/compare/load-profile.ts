/**
 * The load a run was driven with: the keys of its load configuration that set how hard the service is
 * pushed (virtual users, concurrency, request rate, duration…). Two runs driven differently measure
 * different things: a baseline run at 10 VUs says nothing about a head run at 50.
 */
export const LOAD_CONFIG_KEYS = ["vus", "vus_max", "concurrency", "connections", "rate", "rps", "duration", "users", "spawn_rate"] as const;

type Config = Readonly<Record<string, string | number | boolean>>;

/**
 * How `other`'s load profile differs from `reference`'s ("vus 50 vs 10"), or null when every load key
 * both set has the same value (a key only one of them sets is not held against it).
 */
export function loadProfileDifference(reference: Config, other: Config): string | null {
  const differences = LOAD_CONFIG_KEYS.flatMap((key) => {
    const mine = reference[key];
    const theirs = other[key];
    return mine === undefined || theirs === undefined || String(mine) === String(theirs) ? [] : [`${key} ${String(theirs)} vs ${String(mine)}`];
  });
  return differences.length > 0 ? differences.join(", ") : null;
}

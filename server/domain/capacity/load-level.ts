/**
 * A run's load level: how hard it pushed, read from its load configuration (`run.config`, set by the tool's
 * file or by the upload's `config.<key>` metadata). A capacity curve orders runs of one series by it
 * (docs/statistics.md, "Capacity").
 */
import { formatNumber } from "../format";
import type { LOAD_CONFIG_KEYS } from "../compare/load-profile";

/**
 * The load-profile keys (compare/load-profile.ts) that measure intensity, in the order a curve prefers
 * them when several vary: an open model's request rate first (it is the load itself), then a closed
 * model's concurrency. `duration` and `spawn_rate` shape a test but are no level.
 */
export const LOAD_LEVEL_KEYS = [
  "rate",
  "rps",
  "vus",
  "users",
  "concurrency",
  "connections",
  "vus_max",
] as const satisfies readonly (typeof LOAD_CONFIG_KEYS)[number][];

export type LoadLevelKey = (typeof LOAD_LEVEL_KEYS)[number];

type Config = Readonly<Record<string, string | number | boolean>>;

export function isLoadLevelKey(key: string): key is LoadLevelKey {
  return (LOAD_LEVEL_KEYS as readonly string[]).includes(key);
}

/**
 * The run's level for `key`: a positive finite number, or a string holding one ("50", as query metadata
 * of older uploads or a tool may store it); null when the run does not set it.
 */
export function loadLevelOf(config: Config, key: LoadLevelKey): number | null {
  const value = Object.hasOwn(config, key) ? config[key] : undefined;
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value)
        ? Number(value)
        : null;
  return number !== null && Number.isFinite(number) && number > 0 ? number : null;
}

export interface LoadKeyChoice {
  key: LoadLevelKey;
  /** Distinct levels the runs hold for it. */
  levels: number;
}

/**
 * The key that orders these runs: `requested` when some run sets it, else the one with the most distinct
 * levels (ties: LOAD_LEVEL_KEYS order). A k6 run states `vus` and `vus_max`, a ghz run `concurrency`,
 * `connections` and `rps`: the one that varies is the one the user varied. Null when no run sets any.
 */
export function chooseLoadKey(configs: readonly Config[], requested: LoadLevelKey | null = null): LoadKeyChoice | null {
  const choices = loadKeysOf(configs);
  const asked = choices.find((choice) => choice.key === requested);
  if (asked) return asked;
  return choices.reduce<LoadKeyChoice | null>(
    (best, choice) => (best === null || choice.levels > best.levels ? choice : best),
    null,
  );
}

/** The keys some run sets, each with its number of distinct levels, in LOAD_LEVEL_KEYS order (for a select). */
export function loadKeysOf(configs: readonly Config[]): LoadKeyChoice[] {
  return LOAD_LEVEL_KEYS.map((key) => ({
    key,
    levels: new Set(configs.map((config) => loadLevelOf(config, key)).filter((level) => level !== null)).size,
  })).filter((choice) => choice.levels > 0);
}

const LOAD_WORDING: Record<LoadLevelKey, { unit: string; isPrefix: boolean; title: string }> = {
  rate: { unit: "rate", isPrefix: true, title: "Rate" },
  rps: { unit: "rps", isPrefix: true, title: "RPS" },
  vus: { unit: "VUs", isPrefix: false, title: "VUs" },
  users: { unit: "users", isPrefix: false, title: "Users" },
  concurrency: { unit: "concurrency", isPrefix: true, title: "Concurrency" },
  connections: { unit: "connections", isPrefix: false, title: "Connections" },
  vus_max: { unit: "max VUs", isPrefix: false, title: "Max VUs" },
};

/** A level in words: "50 VUs", "15 users", "concurrency 20", "rate 200". */
export function describeLoad(key: LoadLevelKey, level: number): string {
  const { unit, isPrefix } = LOAD_WORDING[key];
  const value = formatNumber(level);
  return isPrefix ? `${unit} ${value}` : `${value} ${unit}`;
}

/** The key as an axis or column title: "VUs", "Concurrency", "RPS". */
export function loadKeyTitle(key: LoadLevelKey): string {
  return LOAD_WORDING[key].title;
}

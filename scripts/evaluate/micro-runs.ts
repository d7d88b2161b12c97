/**
 * The evaluation runs of scripts/evaluate/micro (loaded machine) and micro-quiet (quiet machine), as their
 * manifests list them (scripts/evaluate/micro/README.md, "The manifest"): read by the harness
 * (scripts/evaluate-benchmarks.ts), the upload API's tests and the e2e tests of the gate on real runs.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";

export const QUIET_RUNS = path.join(import.meta.dirname, "micro-quiet");
export const LOADED_RUNS = path.join(import.meta.dirname, "micro");

export type Variant = "base" | "one" | "half" | "most" | "small";
export type Burst = "none" | "partial" | "whole";

/** One run of a manifest (the fields read here). */
export interface ManifestRun {
  id: string;
  seq: number;
  variant: Variant;
  kind: "single" | "ab";
  job?: string;
  pair?: number;
  side?: "base" | "head";
  start_utc: string;
  burst: { type: Burst };
  exit_code: number;
  files: { file: string; gzipped: boolean }[];
}

/** A tool's runs in a data folder, in running order; none when the folder has no manifest for it. */
export function manifestRuns(data: string, tool: string): ManifestRun[] {
  const manifest = path.join(data, tool, "manifest.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { runs: ManifestRun[] }).runs : [];
}

/** A run's output file whose name (without .gz) matches `pattern`, as the tool wrote it; null when it has none. */
export function runFile(data: string, tool: string, run: ManifestRun, pattern: RegExp): { name: string; text: string } | null {
  const file = run.files.find((candidate) => pattern.test(path.basename(candidate.file).replace(/\.gz$/, "")));
  if (!file) return null;
  const bytes = readFileSync(path.join(data, tool, file.file));
  return { name: path.basename(file.file).replace(/\.gz$/, ""), text: (file.gzipped ? gunzipSync(bytes) : bytes).toString("utf8") };
}

/** A tool's first single run of a variant without a burst (how tests pick a run: by rule, never by its numbers). */
export function firstSingleRun(data: string, tool: string, variant: Variant): ManifestRun {
  const run = manifestRuns(data, tool).find((candidate) => candidate.kind === "single" && candidate.variant === variant && candidate.burst.type === "none");
  if (!run) throw new Error(`${tool} has no single ${variant} run without a burst in ${data}`);
  return run;
}

import { z } from "zod";
import { MAX_TREND_BRANCHES } from "../domain/series/trend-branches";
import { DEFAULT_MAX_POINTS, TREND_RANGES } from "../domain/series/trend-series";
import { projectSlugSchema } from "./projects";

/** Wire schemas of an endpoint's trend page: the series and the page's filters. */
export const endpointTrendsInputSchema = z.object({
  project: projectSlugSchema,
  /** The endpoint's name, decoded from the URL; "_all" is the run aggregate. */
  endpoint: z.string().min(1).max(2048),
  /** The endpoint's protocol (part of its identity); null: the one of that name, or the latest measured. */
  protocol: z.string().min(1).max(200).nullable().default(null),
  /**
   * The branches drawn, one line each: branch names, "none" for the runs naming no branch, "all" for every
   * run as one series; empty: the project's default branch (every run when no run names a branch).
   */
  branch: z.array(z.string().min(1).max(1024)).max(MAX_TREND_BRANCHES).default([]),
  label: z.string().min(1).max(1024).nullable().default(null),
  /** One tool's runs; "all" for every tool; null: the tool of the endpoint's latest run. */
  tool: z.string().min(1).max(200).nullable().default(null),
  /** One testbed's runs; "all" for every testbed; "none" for the runs naming none; null: the latest run's testbed. */
  testbed: z.string().min(1).max(256).nullable().default(null),
  range: z.enum(TREND_RANGES).default("all"),
  /** The chart's budget of runs; the server never ships more. */
  maxPoints: z.number().int().min(10).max(2000).default(DEFAULT_MAX_POINTS),
  /** `branch:<name>` or `pr:<number>`: runs drawn over the base branch's series; anything else is ignored. */
  overlay: z.string().min(1).max(1100).nullable().default(null),
});

export type EndpointTrendsInput = z.input<typeof endpointTrendsInputSchema>;

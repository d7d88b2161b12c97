import { z } from "zod";

/**
 * Wire schemas of history imports (`POST /api/v1/projects/:p/import/:source`, docs/uploading.md, "Importing
 * history from github-action-benchmark and Bencher"): the sources, the query and the answer. The files
 * themselves are each source's own wire format, declared beside their readers (domain/parsers/
 * github-action-benchmark/data-js.ts, domain/parsers/bencher/history.ts).
 */

export const HISTORY_SOURCES = ["github-action-benchmark", "bencher"] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export const historySourceSchema = z
  .enum(HISTORY_SOURCES)
  .describe("Whose history: `github-action-benchmark` (its gh-pages data.js or data.json) or `bencher` (NDJSON lines of BMF runs).");

export const importQuerySchema = z
  .object({
    branch: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("The branch every imported run is on (default: the project's default branch; a Bencher line's `branch` wins)."),
    testbed: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe("The testbed of every imported run (default: none; a Bencher line's `testbed` wins)."),
    label: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("The label of a Bencher history's runs (github-action-benchmark's runs are labelled by their suite, the data.js entries key)."),
  })
  .strict()
  .describe("Where the imported runs go.");

export type ImportQuery = z.infer<typeof importQuerySchema>;

export const importAnswerSchema = z
  .object({
    project: z.string().describe("The project's slug."),
    source: historySourceSchema,
    created: z.number().int().nonnegative().describe("Runs stored by this import."),
    skipped: z.number().int().nonnegative().describe("Entries already imported before (same source, suite or label, commit and date): nothing new was stored for them."),
    runs: z
      .array(
        z.object({
          path: z.string().describe('Where the entry is in the file: `entries["Benchmark"][3]`, `line 4`.'),
          id: z.string().describe("The run's id (the earlier run's, when skipped)."),
          url: z.string().describe("The run's page."),
          label: z.string().nullable(),
          commit: z.string().nullable(),
          startedAt: z.string().describe("The entry's date: the run's start (ISO 8601)."),
          status: z.enum(["created", "skipped"]),
        }),
      )
      .describe("Every entry of the file, oldest first."),
  })
  .describe("What a history import stored.");

export type ImportAnswer = z.infer<typeof importAnswerSchema>;

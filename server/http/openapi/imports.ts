import { bencherHistoryLineSchema, bmfSchema } from "../../domain/parsers/bencher";
import { customBenchesSchema, githubActionBenchmarkDataSchema } from "../../domain/parsers/github-action-benchmark";
import { importAnswerSchema, importQuerySchema } from "../../schemas/imports";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, queryParameters, ref, request, success } from "./building-blocks";

/** History imports: github-action-benchmark's data.js and Bencher's BMF runs, one run per entry (docs/uploading.md). */
export const importsResource: ApiResource = {
  schemas: {
    GithubActionBenchmarkData: request(githubActionBenchmarkDataSchema),
    GithubActionBenchmarkCustomJson: request(customBenchesSchema),
    BencherMetricFormat: request(bmfSchema),
    BencherHistoryLine: request(bencherHistoryLineSchema),
    HistoryImportAnswer: answer(importAnswerSchema),
  },
  paths: {
    "/api/v1/projects/{project}/import/{source}": {
      parameters: [projectParameter, pathParameter("source", "`github-action-benchmark` or `bencher`.")],
      post: operation({
        operationId: "importHistory",
        tag: "runs",
        summary: "Import a benchmark history kept by github-action-benchmark or Bencher, one run per entry (maintainers, tokens with the upload scope)",
        description:
          "github-action-benchmark: the body is its gh-pages data.js as is (`window.BENCHMARK_DATA = {…}`) or data.json; each entry " +
          "of each suite becomes a run labelled by the suite, at the entry's commit and date. bencher: the body is NDJSON, one " +
          "`{commit, date, branch?, testbed?, results: <BMF>}` per line (Bencher documents no history export file). All or " +
          "nothing (one transaction); a refused entry is a 400 naming its path (`entries[\"Benchmark\"][3].benches[0].value`, " +
          "`line 4: results.sort.latency.value`). Importing the same entries again stores nothing (`skipped`). Imported runs are " +
          "not judged by the CI gate; change-point detection sees them in date order and sends no webhook for them.",
        security: "token",
        parameters: queryParameters(importQuerySchema),
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: ref("schemas", "GithubActionBenchmarkData") },
            "application/javascript": { schema: { type: "string", description: "github-action-benchmark's data.js: `window.BENCHMARK_DATA = ` and the GithubActionBenchmarkData object." } },
            "application/x-ndjson": { schema: { type: "string", description: "A Bencher history: one BencherHistoryLine per line." } },
          },
        },
        responses: {
          "200": success("Every entry was imported before: nothing new was stored.", "HistoryImportAnswer"),
          "201": success("Runs were stored.", "HistoryImportAnswer"),
        },
        errors: ["BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "PayloadTooLarge"],
      }),
    },
  },
};

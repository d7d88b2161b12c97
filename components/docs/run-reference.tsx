import { Table, Td, Th } from "@/components/ui/table";
import { CodeBlock } from "./code-block";
import { Code, DocSection } from "./doc-section";

/** "Run metadata", "Retries", "The answer" and "Reading back": what goes with an upload and what comes back. */
export function RunReference({
  runsUrl,
  runPageUrl,
  incidentsUrl,
  alertPrecisionUrl,
  auth,
  metadataParameters,
}: {
  runsUrl: string;
  /** An example run page, as the answer's `url` shows it. */
  runPageUrl: string;
  incidentsUrl: string;
  alertPrecisionUrl: string;
  auth: string;
  metadataParameters: { name: string; description: string }[];
}) {
  return (
    <>
      <DocSection id="metadata" title="Run metadata">
        <p>
          Query parameters describe the run better than the tool can (a k6 summary knows nothing of git), so they
          override both the file and the wrapper&apos;s <Code>metadata</Code>.
        </p>
        <Table label="Metadata query parameters">
          <thead>
            <tr>
              <Th>parameter</Th>
              <Th>meaning</Th>
            </tr>
          </thead>
          <tbody>
            {metadataParameters.map((parameter) => (
              <tr key={parameter.name} className="align-top">
                <Td>
                  <Code>{parameter.name}</Code>
                </Td>
                <Td wrap className="wrap-anywhere">
                  {parameter.description}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        <CodeBlock
          title="Metadata from a CI job"
          language="sh"
          code={`curl --data-binary @summary.json ${auth} \\
  "${runsUrl}?format=k6&label=ManagedAsync&round=3&branch=feature-x&commit=9f1c2e7&pr=42&build_url=https%3A%2F%2Fci.example%2Fbuild%2F1&attr.db=postgres15"`}
        />
      </DocSection>

      <DocSection id="idempotency" title="Retries: Idempotency-Key">
        <p>
          Send an <Code>Idempotency-Key</Code> header (or <Code>?idempotency_key=</Code>), 1–255 characters, to make
          retries safe: the first upload answers <strong>201</strong>; the same key with the same files and query
          parameters answers <strong>200</strong> with the first run, never a duplicate (a multipart retry with a new
          boundary included); the same key with different content or metadata (another <Code>label</Code>, say) is a{" "}
          <strong>409</strong>. After a 503 or a dropped connection, retry with the same key.
        </p>
        <CodeBlock
          title="Safe retries"
          language="sh"
          code={`curl --retry 5 --retry-all-errors --data-binary @summary.json ${auth} \\
  -H "Idempotency-Key: ci-$GITHUB_RUN_ID-k6" \\
  "${runsUrl}?format=k6&label=baseline"`}
        />
      </DocSection>

      <DocSection id="answer" title="The answer">
        <p>
          <strong>201</strong> (or <strong>200</strong> for a replayed key) with the run&apos;s id, its page, the format
          read, the endpoints found, the CI gate&apos;s <Code>outcome</Code> against the run&apos;s baseline:{" "}
          <Code>pass</Code>, <Code>fail</Code> or <Code>inconclusive</Code> (nothing failed, but too little history, too
          few requests, a likely slowdown not yet established, or not comparable: <Code>inconclusive.kind</Code> and{" "}
          <Code>reasons</Code> say which, with what would decide; never reported as a pass). <Code>?fail_on=</Code> says
          what fails: <Code>regression</Code>, <Code>sla</Code>, <Code>thresholds</Code> or <Code>none</Code>; by default
          all three. Then its SLA grade, the pull-request comment (<Code>comment</Code>: its Markdown and the hidden marker
          CI finds it again by, one per project and series) and the stored run in the Benchtrack format. With{" "}
          <Code>Accept: text/markdown</Code> the answer is that comment alone, the outcome and why on its first line.
        </p>
        <CodeBlock
          title="Upload answer"
          language="json"
          code={`{
  "id": "cmabc123…",
  "url": "${runPageUrl}",
  "project": "listings",
  "format": "k6-summary",
  "endpoints": ["GET /api/listings/:id", "GET /api/listings"],
  "outcome": "pass",
  "verdict": "pass",
  "reasons": [],
  "notes": ["no endpoint slower beyond the noise; at this history's noise the check catches slowdowns of about 9–14% or more (80% of the time)"],
  "inconclusive": null,
  "failOn": ["regression", "sla", "thresholds"],
  "thresholds": { "evaluated": 4, "failed": [] },
  "comparison": { "baseline": { "how": "the 30 k6 runs labelled baseline on main", "pinned": false, "basis": "recent",
                                "openRegression": null, "openIncident": null, "runs": […] },
                  "headRuns": ["cmabc123…"], "verdict": "unchanged", "regressions": [], "improvements": 0, "url": "…", … },
  "grade": null,
  "comment": { "series": "k6:baseline", "marker": "<!-- benchtrack:listings:k6:baseline -->",
               "markdown": "### ✅ Benchtrack: **PASS**\\n…" },
  "run": {
    "id": "cmabc123…", "schema": "benchtrack/v1", "format": "k6-summary", "tool": "k6", "label": "baseline",
    "environment": {…}, "endpoints": […], "aggregate": {…}, …
  }
}`}
        />
        <CodeBlock
          title="Print the run's page in CI"
          language="sh"
          code={`curl -sS --data-binary @summary.json ${auth} \\
  "${runsUrl}?format=k6&label=baseline" | jq -r .url`}
        />
      </DocSection>

      <DocSection id="read" title="Reading back">
        <p>
          Add <Code>-H &quot;Authorization: Bearer $BENCHTRACK_READ_TOKEN&quot;</Code> when the server sets a read
          token.
        </p>
        <CodeBlock
          title="One run (normalized: ms, errorRate, aggregate)"
          language="sh"
          code={`curl "${runsUrl}/<run-id>"`}
        />
        <CodeBlock
          title="List runs, newest first"
          language="sh"
          code={`curl "${runsUrl}?branch=main&label=baseline&limit=20"
# → {"runs": [...], "nextCursor": "…"} (null on the last page); the next page:
curl "${runsUrl}?branch=main&label=baseline&limit=20&cursor=<nextCursor>"
# filters: label, branch, tool; limit 1–200 (default 50)`}
        />
        <CodeBlock
          title="The original upload"
          language="sh"
          code={`curl -OJ "${runsUrl}/<run-id>/raw"
# a multi-file upload (Locust CSVs, several ghz reports) lists its files; fetch one with ?file=N
curl -OJ "${runsUrl}/<run-id>/raw?file=1"`}
        />
        <CodeBlock
          title="Incidents and alert precision"
          language="sh"
          code={`curl "${incidentsUrl}"              # open and investigating, newest first (?state=closed, all, or one state)
curl "${incidentsUrl}/3"            # one incident: its regressions, links and history
curl "${alertPrecisionUrl}"
# → {"closed": 8, "valid": 7, "invalid": 1, "precision": 0.875, "interval": {"low": 0.529, "high": 0.978},
#    "active": 2, "reason": null, "byDetectorVersion": [{"detectorVersion": 2, "closed": 8, …}],
#    "byMonth": [{"month": "2026-11", "closed": 8, …}]}
# precision: of the closed incidents (fixed, backed out, accepted, invalid), the share that were real
# changes; null with none closed, and "reason" says why. The project's Settings page shows it.`}
        />
      </DocSection>
    </>
  );
}

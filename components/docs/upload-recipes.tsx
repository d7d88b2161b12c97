import { CodeBlock } from "./code-block";
import { Code, DocSection, Subheading } from "./doc-section";

/** "Upload a run": one ready-to-paste curl recipe per tool format, against this server's address. */
export function UploadRecipes({ runsUrl, auth }: { runsUrl: string; auth: string }) {
  return (
    <DocSection id="upload" title="Upload a run">
      <p>
        <Code>POST /api/v1/projects/&lt;project&gt;/runs</Code> takes a tool&apos;s own output as it is. The format is
        detected from the content; <Code>?format=</Code> makes it explicit (a mismatch is a 422, never a silent wrong
        guess), and the answer always names the format it read. <Code>Content-Encoding: gzip</Code> is accepted for every
        body.
      </p>

      <Subheading>k6 — summary JSON</Subheading>
      <p>
        From <Code>k6 run --summary-export=summary.json</Code>, or a <Code>handleSummary</Code> that returns{" "}
        <Code>{`{ "summary.json": JSON.stringify(data) }`}</Code>. k6 1.x&apos;s{" "}
        <Code>--new-machine-readable-summary</Code> files are read too (the same command; that summary holds no
        threshold results and no p99 unless <Code>summaryTrendStats</Code> asks for it).
      </p>
      <CodeBlock
        title="k6 summary"
        language="sh"
        code={`curl --data-binary @summary.json ${auth} \\
  "${runsUrl}?format=k6&label=baseline&branch=main&commit=9f1c2e7"`}
      />

      <Subheading>k6 — NDJSON points, gzip-compressed</Subheading>
      <p>
        From <Code>k6 run --out json=points.ndjson</Code>. Every sample counts: exact percentiles per endpoint (by the{" "}
        <Code>name</Code> tag, else method and URL). The file is read as it streams in, never held whole; gzip it to stay
        well under the body limit.
      </p>
      <CodeBlock
        title="k6 NDJSON (gzip)"
        language="sh"
        code={`gzip -c points.ndjson | curl --data-binary @- ${auth} \\
  -H "Content-Encoding: gzip" -H "Content-Type: application/x-ndjson" \\
  "${runsUrl}?format=k6-ndjson&label=baseline"`}
      />

      <Subheading>Locust — CSV files (multipart)</Subheading>
      <p>
        From <Code>locust --headless --csv locust …</Code>. Send <Code>*_stats.csv</Code>; the history and failures files
        are optional.
      </p>
      <CodeBlock
        title="Locust CSV"
        language="sh"
        code={`curl ${auth} \\
  -F stats=@locust_stats.csv -F history=@locust_stats_history.csv -F failures=@locust_failures.csv \\
  "${runsUrl}?format=locust&label=baseline"`}
      />

      <Subheading>Locust — JSON</Subheading>
      <CodeBlock
        title="Locust JSON"
        language="sh"
        code={`locust --headless --json … > locust.json
curl --data-binary @locust.json ${auth} \\
  "${runsUrl}?format=locust&label=baseline"`}
      />

      <Subheading>ghz</Subheading>
      <p>
        One report from <Code>ghz -O json -o GetListing.json …</Code>, or several (one per gRPC method) as one run with a
        multipart upload:
      </p>
      <CodeBlock
        title="ghz, one report"
        language="sh"
        code={`curl --data-binary @GetListing.json ${auth} \\
  "${runsUrl}?format=ghz&label=baseline"`}
      />
      <CodeBlock
        title="ghz, several reports"
        language="sh"
        code={`curl ${auth} \\
  -F a=@GetListing.json -F b=@ListListings.json \\
  "${runsUrl}?format=ghz&label=baseline"`}
      />

      <Subheading>Any other tool — the Benchtrack JSON format</Subheading>
      <p>
        Only <Code>schema</Code> and, per endpoint, <Code>name</Code> are required; every number is optional. Latency
        units may be <Code>s</Code>, <Code>ms</Code>, <Code>us</Code> or <Code>ns</Code>; keys like <Code>p99.9</Code> are
        percentiles. The full schema is{" "}
        <a className="text-accent underline" href="/api/v1/schema/run.json">
          /api/v1/schema/run.json
        </a>
        .
      </p>
      <CodeBlock
        title="Benchtrack JSON"
        language="sh"
        code={`curl --data-binary @- ${auth} -H "Content-Type: application/json" \\
  "${runsUrl}" <<'JSON'
{
  "schema": "benchtrack/v1",
  "tool": "my-load-tester",
  "label": "baseline",
  "durationSeconds": 30,
  "endpoints": [
    { "name": "GetListing", "requests": 89, "failures": 0, "throughput": 2.87,
      "latency": { "unit": "ms", "mean": 0.76, "p50": 0.74, "p95": 0.87, "p99": 1.11 } }
  ]
}
JSON`}
      />

      <Subheading>The wrapper: a tool&apos;s output with its metadata</Subheading>
      <p>
        <Code>{`{"format", "metadata", "result"}`}</Code>: <Code>result</Code> is the tool&apos;s JSON as is (or NDJSON / CSV
        text as a JSON string); <Code>metadata</Code> takes the fields listed below, with <Code>attributes</Code> as an
        object.
      </p>
      <CodeBlock
        title="Wrapper (with jq)"
        language="sh"
        code={`jq -n --slurpfile result summary.json \\
  '{format: "k6", metadata: {label: "baseline", round: 2, branch: "main", attributes: {db: "postgres15"}}, result: $result[0]}' \\
  | curl --data-binary @- ${auth} -H "Content-Type: application/json" "${runsUrl}"`}
      />
    </DocSection>
  );
}

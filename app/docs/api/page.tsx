import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { CodeBlock } from "@/components/docs/code-block";
import { cn } from "@/components/lib/cn";
import { getEnv } from "@/server/env";
import { API_ERROR_STATUS } from "@/server/http/errors";
import { ERROR_RESPONSES, buildOpenApiDocument } from "@/server/http/openapi";
import { publicBaseUrl } from "@/server/public-url";

// The examples use the URL this page was reached by: never prerender at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API" };

const SECTIONS = [
  { id: "auth", title: "Authentication" },
  { id: "upload", title: "Upload a run" },
  { id: "metadata", title: "Run metadata" },
  { id: "idempotency", title: "Retries: Idempotency-Key" },
  { id: "answer", title: "The answer" },
  { id: "read", title: "Reading back" },
  { id: "errors", title: "Errors" },
  { id: "limits", title: "Limits" },
  { id: "reference", title: "Machine-readable reference" },
] as const;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="border-border scroll-mt-6 border-t pt-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 space-y-3 text-sm leading-relaxed">{children}</div>
    </section>
  );
}

/** Inline code. Short snippets never break inside (`?format=`); long ones may, to fit a phone screen. */
function Code({ children }: { children: ReactNode }) {
  const isShort = typeof children === "string" && children.length <= 24;
  return (
    <code
      className={cn(
        "bg-surface-muted rounded px-1 py-0.5 text-[0.85em]",
        isShort ? "whitespace-nowrap" : "break-words",
      )}
    >
      {children}
    </code>
  );
}

function Subheading({ children }: { children: ReactNode }) {
  return <h3 className="pt-2 font-semibold">{children}</h3>;
}

export default async function ApiDocsPage() {
  const baseUrl = publicBaseUrl(await headers());
  const env = getEnv();
  const runsUrl = `${baseUrl}/api/v1/projects/listings/runs`;
  const auth = `-H "Authorization: Bearer $BENCHTRACK_TOKEN"`;

  // The metadata parameters as the OpenAPI document describes them (from runMetadataSchema).
  const metadataParameters = Object.entries(buildOpenApiDocument(baseUrl).components.parameters)
    .filter(([key]) => key.startsWith("metadata."))
    .map(([, parameter]) => ({
      name: String(parameter.name),
      description: typeof parameter.description === "string" ? parameter.description : "",
    }));
  const errorRows = Object.values(ERROR_RESPONSES).map((response) => ({
    ...response,
    code: Object.entries(API_ERROR_STATUS).find(([, status]) => status === response.status)?.[0] ?? "",
  }));

  return (
    <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-10">
      <nav aria-label="On this page" className="hidden lg:block">
        <ul className="sticky top-6 space-y-1.5 text-sm">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-text-muted hover:text-text">
                {section.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <article className="max-w-3xl min-w-0 space-y-8">
        <header>
          <h1 className="text-xl font-semibold">API</h1>
          <p className="text-text-muted mt-2 text-sm leading-relaxed">
            CI uploads each load-test run with one <Code>curl</Code> call; the answer says where the run lives. Every
            example below is ready to paste: it uses this server&apos;s address, <Code>{baseUrl}</Code>, a project
            called <Code>listings</Code> and a token in <Code>$BENCHTRACK_TOKEN</Code>. The full reference is the{" "}
            <a className="text-accent underline" href="/api/v1/openapi.json">
              OpenAPI document
            </a>
            .
          </p>
        </header>

        <Section id="auth" title="Authentication">
          <p>
            Every call that writes sends <Code>Authorization: Bearer &lt;token&gt;</Code>. Tokens are stored only as
            hashes and shown once, when created.
          </p>
          <ul className="list-disc space-y-1.5 pl-5">
            <li>
              <strong>Admin token</strong>: the value of <Code>BENCHTRACK_ADMIN_TOKEN</Code> on the server (at least 16
              characters; unset means no admin access). It can do everything, and an upload with it creates a missing
              project.
            </li>
            <li>
              <strong>Project tokens</strong>: upload runs to one project only. Create one on the server with{" "}
              <Code>npm run token -- create --project listings</Code> (stop <Code>npm start</Code> first when using the
              embedded database), or over the API with the admin token. Revoke with{" "}
              <Code>DELETE …/tokens/&lt;id&gt;</Code>.
            </li>
            <li>
              <strong>Read token</strong>: reading is open unless <Code>BENCHTRACK_READ_TOKEN</Code> is set; then GET
              calls need it (or the admin token, or a project token).
            </li>
          </ul>
          <CodeBlock
            title="Create a project token (admin)"
            language="sh"
            code={`curl -X POST -H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN" \\
  -H "Content-Type: application/json" -d '{"name": "github-actions"}' \\
  "${baseUrl}/api/v1/projects/listings/tokens"
# → 201 {"id": "…", "name": "github-actions", "prefix": "bt_…", "token": "bt_…", "createdAt": "…"}`}
          />
        </Section>

        <Section id="upload" title="Upload a run">
          <p>
            <Code>POST /api/v1/projects/&lt;project&gt;/runs</Code> takes a tool&apos;s own output as it is. The format
            is detected from the content; <Code>?format=</Code> makes it explicit (a mismatch is a 422, never a silent
            wrong guess), and the answer always names the format it read. <Code>Content-Encoding: gzip</Code> is
            accepted for every body.
          </p>

          <Subheading>k6 — summary JSON</Subheading>
          <p>
            From <Code>k6 run --summary-export=summary.json</Code>, or a <Code>handleSummary</Code> that returns{" "}
            <Code>{`{ "summary.json": JSON.stringify(data) }`}</Code>.
          </p>
          <CodeBlock
            title="k6 summary"
            language="sh"
            code={`curl --data-binary @summary.json ${auth} \\
  "${runsUrl}?format=k6&label=baseline&branch=main&commit=9f1c2e7"`}
          />

          <Subheading>k6 — NDJSON points, gzip-compressed</Subheading>
          <p>
            From <Code>k6 run --out json=points.ndjson</Code>. Every sample counts: exact percentiles per endpoint (by
            the <Code>name</Code> tag, else method and URL). The file is read as it streams in, never held whole; gzip
            it to stay well under the body limit.
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
            From <Code>locust --headless --csv locust …</Code>. Send <Code>*_stats.csv</Code>; the history and failures
            files are optional.
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
            One report from <Code>ghz -O json -o GetListing.json …</Code>, or several (one per gRPC method) as one run
            with a multipart upload:
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
            Only <Code>schema</Code> and, per endpoint, <Code>name</Code> are required; every number is optional.
            Latency units may be <Code>s</Code>, <Code>ms</Code>, <Code>us</Code> or <Code>ns</Code>; keys like{" "}
            <Code>p99.9</Code> are percentiles. The full schema is{" "}
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
            <Code>{`{"format", "metadata", "result"}`}</Code>: <Code>result</Code> is the tool&apos;s JSON as is (or
            NDJSON / CSV text as a JSON string); <Code>metadata</Code> takes the fields listed below, with{" "}
            <Code>attributes</Code> as an object.
          </p>
          <CodeBlock
            title="Wrapper (with jq)"
            language="sh"
            code={`jq -n --slurpfile result summary.json \\
  '{format: "k6", metadata: {label: "baseline", round: 2, branch: "main", attributes: {db: "postgres15"}}, result: $result[0]}' \\
  | curl --data-binary @- ${auth} -H "Content-Type: application/json" "${runsUrl}"`}
          />
        </Section>

        <Section id="metadata" title="Run metadata">
          <p>
            Query parameters describe the run better than the tool can (a k6 summary knows nothing of git), so they
            override both the file and the wrapper&apos;s <Code>metadata</Code>.
          </p>
          <div className="border-border overflow-x-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <thead className="bg-surface-muted text-text-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    parameter
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    meaning
                  </th>
                </tr>
              </thead>
              <tbody>
                {metadataParameters.map((parameter) => (
                  <tr key={parameter.name} className="border-border border-t align-top">
                    <td className="px-3 py-2 whitespace-nowrap">
                      <Code>{parameter.name}</Code>
                    </td>
                    <td className="px-3 py-2 wrap-anywhere">{parameter.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <CodeBlock
            title="Metadata from a CI job"
            language="sh"
            code={`curl --data-binary @summary.json ${auth} \\
  "${runsUrl}?format=k6&label=ManagedAsync&round=3&branch=feature-x&commit=9f1c2e7&pr=42&build_url=https%3A%2F%2Fci.example%2Fbuild%2F1&attr.db=postgres15"`}
          />
        </Section>

        <Section id="idempotency" title="Retries: Idempotency-Key">
          <p>
            Send an <Code>Idempotency-Key</Code> header (or <Code>?idempotency_key=</Code>), 1–255 characters, to make
            retries safe: the first upload answers <strong>201</strong>; the same key with the same body answers{" "}
            <strong>200</strong> with the first run, never a duplicate; the same key with a different body is a{" "}
            <strong>409</strong>.
          </p>
          <CodeBlock
            title="Safe retries"
            language="sh"
            code={`curl --retry 5 --retry-all-errors --data-binary @summary.json ${auth} \\
  -H "Idempotency-Key: ci-$GITHUB_RUN_ID-k6" \\
  "${runsUrl}?format=k6&label=baseline"`}
          />
        </Section>

        <Section id="answer" title="The answer">
          <p>
            <strong>201</strong> (or <strong>200</strong> for a replayed key) with the run&apos;s id, its page, the
            format read, the endpoints found and the stored run in the Benchtrack format:
          </p>
          <CodeBlock
            title="Upload answer"
            language="json"
            code={`{
  "id": "cmabc123…",
  "url": "${baseUrl}/projects/listings/runs/cmabc123…",
  "project": "listings",
  "format": "k6-summary",
  "endpoints": ["GET /api/listings/:id", "GET /api/listings"],
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
        </Section>

        <Section id="read" title="Reading back">
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
        </Section>

        <Section id="errors" title="Errors">
          <p>
            Every error is the same JSON envelope. <Code>details</Code> point at what is wrong: a JSON path, a CSV line,
            a query parameter or a header. Nothing is half-written: a run is stored whole or not at all.
          </p>
          <CodeBlock
            title="400 Bad Request"
            language="json"
            code={`{
  "error": {
    "code": "bad_request",
    "message": "Query parameter round must be a whole number, got \\"two\\"",
    "details": [{ "path": "query.round", "message": "expected a whole number" }]
  }
}`}
          />
          <div className="border-border overflow-x-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <thead className="bg-surface-muted text-text-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    status and code
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    when
                  </th>
                </tr>
              </thead>
              <tbody>
                {errorRows.map((row) => (
                  <tr key={row.status} className="border-border border-t align-top">
                    <td className="px-3 py-2">
                      <span className="block font-medium tabular-nums">{row.status}</span>
                      <Code>{row.code}</Code>
                    </td>
                    <td className="px-3 py-2 wrap-anywhere">{row.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>

        <Section id="limits" title="Limits">
          <ul className="list-disc space-y-1.5 pl-5">
            <li>
              <Code>BENCHTRACK_MAX_BODY_BYTES</Code> (default 50 MB; here {megabytes(env.BENCHTRACK_MAX_BODY_BYTES)}):
              the largest body as received, compressed, and the largest JSON, CSV or multipart document after
              decompression.
            </li>
            <li>
              <Code>BENCHTRACK_MAX_DECOMPRESSED_BYTES</Code> (default 500 MB; here{" "}
              {megabytes(env.BENCHTRACK_MAX_DECOMPRESSED_BYTES)}): the largest k6 NDJSON stream after gzip
              decompression.
            </li>
          </ul>
          <p>Larger uploads get a 413. Compress NDJSON with gzip: it typically shrinks tenfold or more.</p>
        </Section>

        <Section id="reference" title="Machine-readable reference">
          <ul className="list-disc space-y-1.5 pl-5">
            <li>
              <a className="text-accent underline" href="/api/v1/openapi.json">
                /api/v1/openapi.json
              </a>{" "}
              — the OpenAPI 3.1 document, generated from the same Zod schemas that validate requests.
            </li>
            <li>
              <a className="text-accent underline" href="/api/v1/schema/run.json">
                /api/v1/schema/run.json
              </a>{" "}
              — JSON Schema (draft 2020-12) of the Benchtrack JSON format v1, for editors and validators.
            </li>
          </ul>
        </Section>
      </article>
    </div>
  );
}

import { formatsInOrder, TOOL_NAMES } from "@/server/domain/parsers/formats";
import { CodeBlock } from "./code-block";
import { Code, DocSection, Subheading } from "./doc-section";

const TOOL_TITLES: Readonly<Record<string, string>> = {
  k6: "k6",
  locust: "Locust",
  ghz: "ghz (gRPC)",
  vegeta: "vegeta",
  hey: "hey",
  wrk: "wrk",
  autocannon: "autocannon",
  artillery: "Artillery",
  jmeter: "Apache JMeter",
};

/** Every format at a glance: its id, how to send it, and the smallest latency change it can show. */
function FormatTable() {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[48rem] text-left text-xs" data-testid="format-table">
        <thead className="text-text-muted">
          <tr>
            <th className="py-1 pr-3 font-medium">Tool</th>
            <th className="py-1 pr-3 font-medium">Format</th>
            <th className="py-1 pr-3 font-medium">
              <Code>?format=</Code> id
            </th>
            <th className="py-1 pr-3 font-medium">Send as</th>
            <th className="py-1 font-medium">Latency resolution</th>
          </tr>
        </thead>
        <tbody>
          {formatsInOrder().map((format) => (
            <tr key={format.id} className="border-border border-t">
              <td className="py-1 pr-3">{format.tool}</td>
              <td className="py-1 pr-3">{format.title}</td>
              <td className="py-1 pr-3">
                <Code>{format.id}</Code>
              </td>
              <td className="py-1 pr-3">{format.upload}</td>
              <td className="py-1">{format.resolution}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Upload a run": one ready-to-paste curl recipe per tool format, against this server's address. */
export function UploadRecipes({ runsUrl, auth }: { runsUrl: string; auth: string }) {
  return (
    <DocSection id="formats" title="Upload a run: every tool's own output">
      <p>
        <Code>POST /api/v1/projects/&lt;project&gt;/runs</Code> takes a tool&apos;s own output as it is. The format is
        detected from the content; <Code>?format=</Code> makes it explicit (a mismatch is a 422, never a silent wrong
        guess), and the answer always names the format it read. <Code>Content-Encoding: gzip</Code> is accepted for
        every body.
      </p>

      <p>
        Every format below is read from the file the tool already writes: no conversion script in CI. Where a tool
        measured a single target and does not name it (hey, vegeta, a ghz CSV sent as a bare body),{" "}
        <Code>?endpoint=GetListing</Code> names it; otherwise the run holds only its aggregate. <Code>?format=</Code>{" "}
        takes a tool&apos;s name (all its formats) or one format&apos;s id; an unknown name is a 400 listing them.
      </p>
      <p>
        A format&apos;s latency resolution is the smallest change its stored latencies can show, from how the tool
        records and prints them: a Locust p50 going from 9 to 10 ms is one step of its histogram, not a measured +11%.
      </p>
      <FormatTable />
      {TOOL_NAMES.filter((tool) => tool !== "benchtrack").map((tool) => (
        <div key={tool} id={`format-${tool}`} className="scroll-mt-6">
          <Subheading>{TOOL_TITLES[tool] ?? tool}</Subheading>
          {formatsInOrder()
            .filter((format) => format.tool === tool)
            .map((format) => (
              <div key={format.id} className="mt-2" data-testid={`format-${format.id}`}>
                <p>
                  <strong>{format.title}</strong> (<Code>{format.id}</Code>), written by <Code>{format.command}</Code>
                  {format.checkedOn === "documented format" && (
                    <> — built from the tool&apos;s documented format: no real output of it could be made here</>
                  )}
                  .
                </p>
                <p className="text-text-muted">
                  <span className="font-medium">Keeps:</span> {format.keeps}.{" "}
                  <span className="font-medium">Drops:</span> {format.drops}.{" "}
                  <span className="font-medium">Latency resolution:</span> {format.resolution}.
                </p>
                <CodeBlock
                  title={`${format.title}, upload`}
                  language="sh"
                  code={format.recipe.replaceAll("$AUTH", auth).replaceAll("$RUNS", runsUrl)}
                />
              </div>
            ))}
        </div>
      ))}

      <Subheading>Any other tool — the Benchtrack JSON format</Subheading>
      <p>
        Only <Code>schema</Code> and, per endpoint, <Code>name</Code> are required; every number is optional. Latency
        units may be <Code>s</Code>, <Code>ms</Code>, <Code>us</Code> or <Code>ns</Code>; keys like <Code>p99.9</Code>{" "}
        are percentiles. The full schema is{" "}
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
        <Code>{`{"format", "metadata", "result"}`}</Code>: <Code>result</Code> is the tool&apos;s JSON as is (or NDJSON
        / CSV text as a JSON string); <Code>metadata</Code> takes the fields listed below, with <Code>attributes</Code>{" "}
        as an object.
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

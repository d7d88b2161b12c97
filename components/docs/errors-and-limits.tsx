import { Table, Td, Th } from "@/components/ui/table";
import { formatBytes } from "@/server/domain/format";
import { CodeBlock } from "./code-block";
import { Code, DocSection } from "./doc-section";

/** "Errors", "Limits" and the machine-readable reference. */
export function ErrorsAndLimits({
  errorRows,
  limits,
}: {
  errorRows: { status: number; code: string; description: string }[];
  limits: { maxBodyBytes: number; maxDecompressedBytes: number };
}) {
  return (
    <>
      <DocSection id="errors" title="Errors">
        <p>
          Every error is the same JSON envelope. <Code>details</Code> point at what is wrong: a JSON path, a CSV line, a
          query parameter or a header. Nothing is half-written: a run is stored whole or not at all.
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
        <Table label="Error answers">
          <thead>
            <tr>
              <Th>status and code</Th>
              <Th>when</Th>
            </tr>
          </thead>
          <tbody>
            {errorRows.map((row) => (
              <tr key={row.status} className="align-top">
                <Td>
                  <span className="block font-medium tabular-nums">{row.status}</span>
                  <Code>{row.code}</Code>
                </Td>
                <Td wrap className="wrap-anywhere">{row.description}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </DocSection>

      <DocSection id="limits" title="Limits">
        <ul className="list-disc space-y-1.5 pl-5">
          <li>
            <Code>BENCHTRACK_MAX_BODY_BYTES</Code> (default 50 MiB; here {formatBytes(limits.maxBodyBytes)}): the largest
            body as received, compressed, and the largest JSON, CSV or multipart document after decompression.
          </li>
          <li>
            <Code>BENCHTRACK_MAX_DECOMPRESSED_BYTES</Code> (default 500 MiB; here {formatBytes(limits.maxDecompressedBytes)}
            ): the largest k6 NDJSON stream after gzip decompression.
          </li>
        </ul>
        <p>Larger uploads get a 413. Compress NDJSON with gzip: it typically shrinks tenfold or more.</p>
      </DocSection>

      <DocSection id="reference" title="Machine-readable reference">
        <ul className="list-disc space-y-1.5 pl-5">
          <li>
            <a className="text-accent underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>{" "}
            — the OpenAPI 3.1 document, generated from the same Zod schemas that validate requests and describe answers.
          </li>
          <li>
            <a className="text-accent underline" href="/api/v1/schema/run.json">
              /api/v1/schema/run.json
            </a>{" "}
            — JSON Schema (draft 2020-12) of the Benchtrack JSON format v1, for editors and validators.
          </li>
        </ul>
      </DocSection>
    </>
  );
}

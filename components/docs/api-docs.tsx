import { AuthSection } from "./auth-section";
import { Code } from "./doc-section";
import { ErrorsAndLimits } from "./errors-and-limits";
import { RunReference } from "./run-reference";
import { UploadRecipes } from "./upload-recipes";

const SECTIONS = [
  { id: "auth", title: "Authentication" },
  { id: "formats", title: "Upload a run: formats" },
  { id: "metadata", title: "Run metadata" },
  { id: "idempotency", title: "Retries: Idempotency-Key" },
  { id: "answer", title: "The answer" },
  { id: "read", title: "Reading back" },
  { id: "errors", title: "Errors" },
  { id: "limits", title: "Limits" },
  { id: "reference", title: "Machine-readable reference" },
] as const;

export interface ApiDocsProps {
  baseUrl: string;
  /** Absolute URLs of the example project ("listings"). */
  urls: { runs: string; tokens: string; runPage: string; incidents: string; alertPrecision: string };
  metadataParameters: { name: string; description: string }[];
  errorRows: { status: number; code: string; description: string }[];
  limits: { maxBodyBytes: number; maxDecompressedBytes: number };
}

/** `/docs/api`: how to upload from CI and read back, every example ready to paste against this server. */
export function ApiDocs({ baseUrl, urls, metadataParameters, errorRows, limits }: ApiDocsProps) {
  const auth = `-H "Authorization: Bearer $BENCHTRACK_TOKEN"`;
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
            example below is ready to paste: it uses this server&apos;s address, <Code>{baseUrl}</Code>, a project called{" "}
            <Code>listings</Code> and a token in <Code>$BENCHTRACK_TOKEN</Code>. The full reference is the{" "}
            <a className="text-accent underline" href="/api/v1/openapi.json">
              OpenAPI document
            </a>
            .
          </p>
        </header>
        <AuthSection tokensUrl={urls.tokens} />
        <UploadRecipes runsUrl={urls.runs} auth={auth} />
        <RunReference
          runsUrl={urls.runs}
          runPageUrl={urls.runPage}
          incidentsUrl={urls.incidents}
          alertPrecisionUrl={urls.alertPrecision}
          auth={auth}
          metadataParameters={metadataParameters}
        />
        <ErrorsAndLimits errorRows={errorRows} limits={limits} />
      </article>
    </div>
  );
}

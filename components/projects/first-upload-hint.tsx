import path from "node:path";
import { CodeBlock } from "@/components/docs/code-block";
import { Code } from "@/components/docs/doc-section";
import type { AdminTokenSource } from "@/server/admin-token";
import { exportAdminTokenCommand } from "@/server/admin-token";
import { FORMAT_LIST } from "@/server/domain/parsers/format-list";
import { pagePaths } from "@/server/domain/urls";

/** The project a first upload creates: a name that says "put yours here". */
const FIRST_PROJECT = "my-service";

/** The shell lines of a first upload of `file`, against this server, with the admin token from the shell. */
export function firstUploadCommand(baseUrl: string, file: string): string {
  return [
    `curl --data-binary @${file} \\`,
    `  -H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN" \\`,
    `  "${baseUrl}/api/v1/projects/${FIRST_PROJECT}/runs?label=baseline"`,
  ].join("\n");
}

/**
 * The formats the upload reads, by tool, from the format registry (never a hand-kept list); each by its
 * title without the tool's name, which heads its group ("k6 --out json NDJSON" → "--out json NDJSON").
 */
export function formatsByTool(): { tool: string; titles: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const format of FORMAT_LIST) {
    const prefix = `${format.tool} `;
    const title = format.title.toLowerCase().startsWith(prefix) ? format.title.slice(prefix.length) : format.title;
    groups.set(format.tool, [...(groups.get(format.tool) ?? []), title]);
  }
  return [...groups].map(([tool, titles]) => ({ tool, titles }));
}

/**
 * What the home page says when there is nothing yet: how to send a first run to this very server. The
 * commands use its base URL, a file that exists (`sampleFile`, a real k6 summary bundled with Benchtrack,
 * when the server finds it; else the file k6 writes), and the admin token as this server has it: the file
 * `npm start` keeps it in (never the token itself: this page may be public), the variable of whoever
 * started it, or none, and then how to set one instead of a command that would answer 401. A server
 * component: the format list stays out of the browser's scripts.
 */
export function FirstUploadHint({
  baseUrl,
  token,
  sampleFile,
}: {
  baseUrl: string;
  token: AdminTokenSource;
  sampleFile: string | null;
}) {
  const formats = formatsByTool();
  return (
    <section
      className="min-w-0 space-y-4 rounded-lg border border-dashed border-border bg-surface p-4 text-sm sm:p-6"
      data-testid="empty-projects"
    >
      <div>
        <h2 className="font-semibold">No projects yet</h2>
        <p className="mt-1 text-text-muted">
          Send a first run with curl: an upload with the admin token creates its project, and the answer names the format
          it read and links to the run&apos;s page.
        </p>
      </div>

      {token.kind === "none" ? (
        <NoAdminToken token={token} />
      ) : (
        <ol className="space-y-4">
          <li>
            <h3 className="font-medium">1. The admin token</h3>
            {token.kind === "file" ? (
              <>
                <p className="mt-1 text-text-muted">
                  This server made its admin token on its first start and keeps it in <Code>{token.path}</Code>, on the
                  machine it runs on{path.isAbsolute(token.path) ? "" : " (relative to the folder it was started from)"}. In
                  a shell there:
                </p>
                <CodeBlock title="Take the admin token" language="sh" code={exportAdminTokenCommand(token.path)} />
              </>
            ) : (
              <p className="mt-1 text-text-muted" data-testid="admin-token-from-environment">
                This server was started with <Code>BENCHTRACK_ADMIN_TOKEN</Code> set: put the same value in your shell (
                <Code>export BENCHTRACK_ADMIN_TOKEN=…</Code>).
              </p>
            )}
          </li>
          <li>
            <h3 className="font-medium">2. Upload</h3>
            {sampleFile ? (
              <>
                <p className="mt-1 text-text-muted">A real k6 summary that comes with Benchtrack, from the same folder:</p>
                <CodeBlock title="Upload a first run" language="sh" code={firstUploadCommand(baseUrl, sampleFile)} />
                <p className="mt-2 text-text-muted">
                  Your own tool&apos;s output goes the same way: <Code>k6 run --summary-export=summary.json script.js</Code>{" "}
                  writes <Code>summary.json</Code>; send <Code>@summary.json</Code> instead. The format is detected from
                  the content.
                </p>
              </>
            ) : (
              <>
                <p className="mt-1 text-text-muted">
                  The file your tool writes, e.g. <Code>summary.json</Code> from{" "}
                  <Code>k6 run --summary-export=summary.json script.js</Code>; the format is detected from the content:
                </p>
                <CodeBlock title="Upload a first run" language="sh" code={firstUploadCommand(baseUrl, "summary.json")} />
              </>
            )}
          </li>
        </ol>
      )}

      <div>
        <h3 className="font-medium">
          Formats read <span className="font-normal text-text-muted">({FORMAT_LIST.length})</span>
        </h3>
        <dl
          className="mt-1 grid gap-x-3 sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-y-1"
          data-testid="first-upload-formats"
        >
          {formats.map(({ tool, titles }) => (
            <div key={tool} className="contents">
              <dt className="font-medium">{tool}</dt>
              {/* A title never breaks inside ("-type=hist"); the line breaks between titles. */}
              <dd className="mb-1.5 text-text-muted sm:mb-0">
                {titles.map((title, index) => (
                  <span key={title}>
                    <span className="whitespace-nowrap">
                      {title}
                      {index < titles.length - 1 && " ·"}
                    </span>{" "}
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-text-muted">
          What each keeps and drops, and an upload recipe for each:{" "}
          <a href={`${pagePaths.apiDocs()}#formats`} className="text-accent underline">
            API docs
          </a>
          .
        </p>
      </div>
    </section>
  );
}

/** A server with no admin token: what to do, since an upload to a new project would answer 401. */
function NoAdminToken({ token }: { token: Extract<AdminTokenSource, { kind: "none" }> }) {
  return (
    <div className="rounded-md border border-warn/40 bg-warn/10 p-3" role="note" data-testid="no-admin-token">
      <p>
        <strong>This server has no admin token</strong> (<Code>BENCHTRACK_ADMIN_TOKEN</Code> is unset), so nothing can
        create a project yet: an upload would answer 401.{" "}
        {token.canStartMakeOne ? (
          <>
            Restart it with <Code>npm start</Code>, which makes one and keeps it in <Code>{token.path}</Code>, or set your
            own in its environment:
          </>
        ) : (
          <>Restart it with one in its environment (16 characters or more, the same on every replica):</>
        )}
      </p>
      <CodeBlock
        title="Start with an admin token"
        language="sh"
        code={[
          "export BENCHTRACK_ADMIN_TOKEN=$(openssl rand -hex 32)   # keep it: it is the admin's password",
          "npm start                                               # or however this server is started",
        ].join("\n")}
      />
    </div>
  );
}

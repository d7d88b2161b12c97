import { EmptyState } from "@/components/ui/empty-state";

/** The overview's empty state: the project exists but has no runs yet; how CI sends one. */
export function ProjectUploadHint({ baseUrl, slug }: { baseUrl: string; slug: string }) {
  const command = `curl --data-binary @summary.json \\
  -H "Authorization: Bearer $BENCHTRACK_TOKEN" \\
  "${baseUrl}/api/v1/projects/${encodeURIComponent(slug)}/runs?format=k6&label=baseline&branch=main"`;
  return (
    <div data-testid="overview-empty">
      <EmptyState title="No runs yet">
        <p>
          Upload a run from CI with curl: k6, Locust, ghz and the Benchtrack JSON format are accepted, and the format is
          detected when you leave <code>format</code> out. Create an upload token with{" "}
          <code>npm run token -- create --project {slug}</code>.
        </p>
        <pre className="mt-3 overflow-x-auto rounded-md bg-surface-muted p-3 text-xs text-text">
          <code>{command}</code>
        </pre>
      </EmptyState>
    </div>
  );
}

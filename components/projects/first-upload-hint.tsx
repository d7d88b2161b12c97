/** What the home page says when there is nothing yet: how to send a first run. */
export function FirstUploadHint({ baseUrl }: { baseUrl: string }) {
  const command = `curl --data-binary @summary.json -H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN" "${baseUrl}/api/v1/projects/my-service/runs?format=k6&label=baseline"`;
  return (
    <section className="rounded-lg border border-dashed border-border bg-surface p-6" data-testid="empty-projects">
      <h2 className="font-semibold">No projects yet</h2>
      <p className="mt-2 text-sm text-text-muted">
        Upload a first run from CI with curl: the project is created on its first upload with the admin token
        (k6, Locust, ghz and the Benchtrack JSON format are accepted).
      </p>
      <pre className="mt-3 rounded-md bg-surface-muted p-3 text-xs break-all whitespace-pre-wrap">
        <code>{command}</code>
      </pre>
    </section>
  );
}

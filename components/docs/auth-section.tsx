import { CodeBlock } from "./code-block";
import { Code, DocSection } from "./doc-section";

/** "Authentication": the three kinds of token and how to create a project token. */
export function AuthSection({ tokensUrl }: { tokensUrl: string }) {
  return (
    <DocSection id="auth" title="Authentication">
      <p>
        Every call that writes sends <Code>Authorization: Bearer &lt;token&gt;</Code>. Tokens are stored only as hashes
        and shown once, when created.
      </p>
      <ul className="list-disc space-y-1.5 pl-5">
        <li>
          <strong>Admin token</strong>: the value of <Code>BENCHTRACK_ADMIN_TOKEN</Code> on the server (at least 16
          characters). Unset, <Code>npm start</Code> with the embedded database makes one on its first start and keeps it
          in <Code>$BENCHTRACK_DATA_DIR/admin-token</Code>; otherwise there is no admin access. It can do everything, and
          an upload with it creates a missing project.
        </li>
        <li>
          <strong>Project tokens</strong>: act on one project only, and upload only unless also given the{" "}
          <Code>read</Code> or <Code>triage</Code> scope; each has a name, may expire (an expired one is refused saying so)
          and shows when it was last used. Create one in Settings → Tokens, on the server with{" "}
          <Code>npm run token -- create --project listings --name ci --scopes upload --expires-in-days 90</Code> (stop{" "}
          <Code>npm start</Code> first when using the embedded database), or over the API with the admin token. Revoke with{" "}
          <Code>DELETE …/tokens/&lt;id&gt;</Code>.
        </li>
        <li>
          <strong>Read token</strong>: reading is open unless <Code>BENCHTRACK_READ_TOKEN</Code> is set; then GET calls
          need it (or the admin token, or a project token).
        </li>
      </ul>
      <CodeBlock
        title="Create a project token (admin)"
        language="sh"
        code={`curl -X POST -H "Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN" \\
  -H "Content-Type: application/json" -d '{"name": "github-actions", "scopes": ["upload"], "expiresInDays": 365}' \\
  "${tokensUrl}"
# → 201 {"id": "…", "name": "github-actions", "prefix": "bt_…", "scopes": ["upload"], "expiresAt": "…", "token": "bt_…", …}`}
      />
    </DocSection>
  );
}

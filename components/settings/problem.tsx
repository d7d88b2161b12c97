import type { TRPCClientErrorLike } from "@trpc/client";
import type { AppRouter } from "@/server/api/root";

/** An admin call's failure as the dashboard receives it from tRPC (the service's details in `data`). */
export type AdminCallError = TRPCClientErrorLike<AppRouter>;

/** True when the admin token was missing, wrong, or not the admin's (401/403). */
function isTokenRefused(error: AdminCallError): boolean {
  return error.data?.code === "UNAUTHORIZED" || error.data?.code === "FORBIDDEN";
}

/** The failure in one line: what went wrong, and that the token was refused when it was. */
export function describeProblem(error: AdminCallError): string {
  return `${isTokenRefused(error) ? "The admin token was refused. " : ""}${error.message}`;
}

/** An API error as the user should read it: what went wrong, and where. */
export function Problem({ error }: { error: AdminCallError }) {
  const details = error.data?.details ?? [];
  return (
    <div role="alert" className="rounded-md border border-bad p-3 text-sm">
      <p className="font-medium text-bad">{describeProblem(error)}</p>
      {details.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-text-muted">
          {details.map((detail) => (
            <li key={`${detail.path}-${detail.message}`}>
              <code>{detail.path}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import type { ApiProblem } from "./admin-token";

/** An API error as the user should read it: what went wrong, and where. */
export function Problem({ problem }: { problem: ApiProblem }) {
  return (
    <div role="alert" className="rounded-md border border-bad p-3 text-sm">
      <p className="font-medium text-bad">
        {problem.status === 401 || problem.status === 403 ? "The admin token was refused. " : ""}
        {problem.message}
      </p>
      {problem.details.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-text-muted">
          {problem.details.map((detail) => (
            <li key={`${detail.path}-${detail.message}`}>
              <code>{detail.path}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { ScopedLink } from "@/components/share/share-context";
import type { CompareLinksData } from "./types";

/**
 * "Compare with…": only runs a comparison can judge this run against (the same tool; for its own label,
 * the same branch and load: server/domain/report/run-report.ts, CompareLinks). With none, it says so
 * instead of opening an empty menu.
 */
export function CompareWith({ compare }: { compare: CompareLinksData }) {
  if (compare.none !== null) {
    // One line beside the other buttons; opened, it says why there is nothing.
    return (
      <details className="relative" data-testid="compare-with-none">
        <summary className="border-border text-text-muted cursor-pointer list-none rounded-md border border-dashed px-2.5 py-1 text-sm">
          Nothing to compare with yet
        </summary>
        <p className="border-border bg-surface text-text-muted absolute left-0 z-10 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border p-2 text-xs shadow-lg">
          {compare.none}
        </p>
      </details>
    );
  }
  return (
    <details className="relative" data-testid="compare-with">
      <summary className="border-border hover:border-accent cursor-pointer list-none rounded-md border px-2.5 py-1 text-sm">
        Compare with…
      </summary>
      <div className="border-border bg-surface absolute left-0 z-10 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border p-1 text-sm shadow-lg">
        <p className="text-text-muted px-2 pt-1 pb-1.5 text-xs">{compare.tool} runs only: another tool is another series.</p>
        <ul>
          {compare.previous && (
            <li>
              <ScopedLink href={compare.previous.href} className="hover:bg-surface-muted block rounded px-2 py-1.5">
                the previous run ({compare.previous.title})
              </ScopedLink>
            </li>
          )}
          {compare.groups.map((group) => (
            <li key={group.href}>
              <ScopedLink href={group.href} className="hover:bg-surface-muted block rounded px-2 py-1.5" data-testid="compare-with-group">
                {group.text}
              </ScopedLink>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}

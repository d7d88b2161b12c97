import Link from "next/link";
import type { CompareLinksData } from "./types";

/** "Compare with…": the previous run of the same label, or the newest runs of any label. */
export function CompareWith({ compare }: { compare: CompareLinksData }) {
  if (!compare.previous && compare.byLabel.length === 0) return null;
  return (
    <details className="relative" data-testid="compare-with">
      <summary className="cursor-pointer list-none rounded-md border border-border px-2.5 py-1 text-sm hover:border-accent">
        Compare with…
      </summary>
      <ul className="absolute right-0 z-10 mt-1 w-64 rounded-md border border-border bg-surface p-1 text-sm shadow-lg">
        {compare.previous && (
          <li>
            <Link href={compare.previous.href} className="block rounded px-2 py-1.5 hover:bg-surface-muted">
              the previous run ({compare.previous.title})
            </Link>
          </li>
        )}
        {compare.byLabel.map((entry) => (
          <li key={entry.label}>
            <Link href={entry.href} className="block rounded px-2 py-1.5 hover:bg-surface-muted">
              the last 5 runs labelled <span className="font-medium">{entry.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

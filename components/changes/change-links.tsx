import Link from "next/link";

/** A recorded change's two links, as its rows show them: its trend (the step marked) and before vs after. */
export function ChangeLinks({
  links,
  series,
  metric,
}: {
  links: { trendPath: string; comparePath: string | null };
  series: string;
  metric: string;
}) {
  return (
    <span className="flex gap-3 text-xs">
      <Link href={links.trendPath} className="text-accent hover:underline" aria-label={`Trend: ${series} ${metric}, the step marked`}>
        trend
      </Link>
      {links.comparePath && (
        <Link href={links.comparePath} className="text-accent hover:underline" aria-label={`Before vs after: ${series} ${metric}`}>
          before vs after
        </Link>
      )}
    </span>
  );
}

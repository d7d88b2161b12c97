"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/lib/cn";

/** The project's sections; the active one follows the URL. */
export function ProjectTabs({ slug }: { slug: string }) {
  const pathname = usePathname();
  const base = `/projects/${encodeURIComponent(slug)}`;
  const tabs = [
    { href: base, label: "Overview", active: pathname === base },
    { href: `${base}/runs`, label: "Runs", active: pathname.startsWith(`${base}/runs`) },
    { href: `${base}/regressions`, label: "Regressions", active: pathname.startsWith(`${base}/regressions`) },
    { href: `${base}/compare`, label: "Compare", active: pathname.startsWith(`${base}/compare`) },
    { href: `${base}/settings`, label: "Settings", active: pathname.startsWith(`${base}/settings`) },
  ];
  return (
    <nav aria-label="Project" className="mb-5 flex gap-1 overflow-x-auto border-b border-border text-sm whitespace-nowrap">
      {tabs.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.active ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-2.5 py-2 sm:px-3",
            tab.active ? "border-accent font-medium text-text" : "border-transparent text-text-muted hover:text-text",
          )}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

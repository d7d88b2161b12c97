"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/lib/cn";
import { pagePaths } from "@/server/domain/urls";

/**
 * The project's sections; the active one follows the URL. Capacity (latency against load) is left out
 * of a project with only benchmark runs, which have no load; its page stays reachable by URL.
 */
export function ProjectTabs({ slug, hasCapacity }: { slug: string; hasCapacity: boolean }) {
  const pathname = usePathname();
  const tabs = [
    { href: pagePaths.project(slug), label: "Overview", exact: true },
    { href: pagePaths.runs(slug), label: "Runs" },
    // The incidents inbox (/incidents); an incident's page (/incidents/N) is under it.
    { href: pagePaths.incidents(slug), label: "Incidents" },
    { href: pagePaths.compare(slug), label: "Compare" },
    ...(hasCapacity ? [{ href: pagePaths.capacity(slug), label: "Capacity" }] : []),
    { href: pagePaths.settings(slug), label: "Settings" },
  ].map((tab: { href: string; label: string; exact?: boolean }) => ({
    ...tab,
    active: tab.exact ? pathname === tab.href : pathname.startsWith(tab.href),
  }));
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

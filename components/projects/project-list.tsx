"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc-provider";
import { FirstUploadHint } from "./first-upload-hint";

export function ProjectList({ baseUrl }: { baseUrl: string }) {
  const trpc = useTRPC();
  const { data: projects } = useSuspenseQuery(trpc.project.list.queryOptions());

  if (projects.length === 0) return <FirstUploadHint baseUrl={baseUrl} />;

  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="project-list">
      {projects.map((project) => (
        <li key={project.id}>
          <Link
            href={`/projects/${encodeURIComponent(project.slug)}`}
            className="block rounded-lg border border-border bg-surface p-4 hover:border-accent"
          >
            <div className="flex items-baseline justify-between gap-2">
              <h2 className="font-semibold">{project.name}</h2>
              {project.isDemo && (
                <span className="rounded bg-surface-muted px-1.5 py-0.5 text-xs text-text-muted">demo data</span>
              )}
            </div>
            {project.description && <p className="mt-1 text-sm text-text-muted">{project.description}</p>}
            <p className="mt-3 text-sm text-text-muted">
              {project.runCount.toLocaleString("en-US")} {project.runCount === 1 ? "run" : "runs"}
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}

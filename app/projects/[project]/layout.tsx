import Link from "next/link";
import type { ReactNode } from "react";
import { ProjectTabs } from "@/components/projects/project-tabs";
import { Badge } from "@/components/ui/badge";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { pagePaths } from "@/server/domain/urls";

export default async function ProjectLayout({ children, ...props }: { children: ReactNode } & PageProps<{ project: string }>) {
  const { params } = await readPageUrl(props);
  const project = await fetchPageQuery(trpc.project.get.queryOptions({ project: params.project }));
  return (
    <div>
      <div className="mb-1 text-sm text-text-muted">
        <Link href="/" className="hover:text-text">
          Projects
        </Link>{" "}
        /
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <Link href={pagePaths.project(project.slug)} className="text-2xl font-semibold tracking-tight">
          {project.name}
        </Link>
        {project.isDemo && (
          <Badge tone="warn" title="Loaded by npm run seed:demo from the bundled fixtures">
            demo data
          </Badge>
        )}
      </div>
      {project.description && <p className="-mt-1 mb-3 text-sm text-text-muted">{project.description}</p>}
      <ProjectTabs slug={project.slug} hasCapacity={!project.hasOnlyBenchmarks} />
      {children}
    </div>
  );
}

import type { ReactNode } from "react";
import { ProjectTabs } from "@/components/projects/project-tabs";
import { ScopedLink } from "@/components/share/share-context";
import { SharedBanner } from "@/components/share/shared-banner";
import { Badge } from "@/components/ui/badge";
import type { PageProps } from "@/server/api/page-url";
import { readPageUrl } from "@/server/api/page-url";
import { fetchPageQuery, trpc } from "@/server/api/server";
import { pagePaths } from "@/server/domain/urls";

export default async function ProjectLayout({ children, ...props }: { children: ReactNode } & PageProps<{ project: string }>) {
  const { params } = await readPageUrl(props);
  const [project, session] = await Promise.all([
    fetchPageQuery(trpc.project.get.queryOptions({ project: params.project })),
    fetchPageQuery(trpc.session.get.queryOptions()),
  ]);
  return (
    <div>
      <div className="mb-1 text-sm text-text-muted">
        <ScopedLink href="/" className="hover:text-text">
          Projects
        </ScopedLink>{" "}
        /
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <ScopedLink href={pagePaths.project(project.slug)} className="text-2xl font-semibold tracking-tight">
          {project.name}
        </ScopedLink>
        {project.isDemo && (
          <Badge tone="warn" title="Loaded by npm run seed:demo from the bundled fixtures">
            demo data
          </Badge>
        )}
      </div>
      {project.description && <p className="-mt-1 mb-3 text-sm text-text-muted">{project.description}</p>}
      {/* Opened through a share link, the tabs would only lead outside it. */}
      {session.share ? <SharedBanner /> : <ProjectTabs slug={project.slug} hasCapacity={!project.hasOnlyBenchmarks} />}
      {children}
    </div>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SettingsView } from "@/components/settings/settings-view";
import { getDb } from "@/server/db";
import { findProject } from "@/server/services/projects";
import { getSlaPolicy } from "@/server/services/sla";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }): Promise<Metadata> {
  return { title: `Settings · ${decodeURIComponent((await params).project)}` };
}

export default async function SettingsPage({ params }: { params: Promise<{ project: string }> }) {
  const slug = decodeURIComponent((await params).project);
  const db = await getDb();
  const project = await findProject(db, slug);
  if (!project) notFound();
  const policy = await getSlaPolicy(db, project.id);
  return (
    <div>
      <h1 className="mb-4 text-xl font-semibold">Settings</h1>
      <SettingsView
        project={project.slug}
        settings={{
          name: project.name,
          description: project.description,
          defaultBranch: project.defaultBranch,
          repoUrl: project.repoUrl,
          minEffectPct: project.minEffectPct,
          alpha: project.alpha,
        }}
        targets={policy?.targets ?? []}
      />
    </div>
  );
}

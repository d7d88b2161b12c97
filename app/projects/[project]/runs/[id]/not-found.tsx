"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { pagePaths } from "@/server/domain/urls";

export default function RunNotFound() {
  const params = useParams<{ project: string }>();
  return (
    <EmptyState title="Run not found">
      This project has no run with that id: it may belong to another project, or the link may be mistyped.{" "}
      <Link href={pagePaths.runs(params.project)} className="text-accent underline-offset-2 hover:underline">
        See the project&apos;s runs
      </Link>
    </EmptyState>
  );
}

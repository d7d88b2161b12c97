"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { ProjectAction } from "@/server/domain/access/roles";

/**
 * What this browser's caller may do in a project (access.mine: docs/access.md), for showing only the
 * controls it can use: `can("triage")`, `can("manage")`… Until the answer comes (or if it fails) it may do
 * nothing; the server checks every call either way.
 */
export function useProjectAccess(project: string) {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.access.mine.queryOptions({ project }, { staleTime: 60_000 }));
  return {
    can: (action: ProjectAction) => data?.actions.includes(action) ?? false,
    /** Null until known. */
    visibility: data?.visibility ?? null,
    isKnown: data !== undefined,
  };
}

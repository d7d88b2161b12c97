"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * incident.update (an admin session): one or many incidents' state, note or links. Once done, every
 * incident query is read again (the inbox's lists and counts, the incident's page), so each view shows
 * what the server stored, not what the browser assumed.
 */
export function useIncidentUpdate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.incident.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.incident.pathFilter()),
    }),
  );
}

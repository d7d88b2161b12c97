"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useProjectAccess } from "@/components/providers/project-access";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import { pagePaths } from "@/server/domain/urls";
import { Problem } from "./problem";

/**
 * Deleting the project (admin): everything of it goes at once (docs/operations.md, "Deleting and
 * retention"), so the button stays disabled until the project's slug is typed; the server checks it too.
 * The page's last card, shown to those who may manage the project (its maintainers, server admins).
 */
export function DangerZone({ project }: { project: string }) {
  const canManage = useProjectAccess(project).can("manage");
  const trpc = useTRPC();
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const remove = useMutation(
    trpc.settings.deleteProject.mutationOptions({ onSuccess: () => router.push(pagePaths.home()) }),
  );
  const matches = typed.trim() === project;
  if (!canManage) return null;

  return (
    <Card title="Danger zone" id="danger-zone" className="mt-5">
      <div className="space-y-3 text-sm" data-testid="danger-zone">
        <p>
          Deleting <strong>{project}</strong> removes every run with its raw files, its incidents, tokens, share links,
          webhook deliveries and rollups. It cannot be undone; the audit log keeps a line saying it was done.
        </p>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) remove.mutate({ project, confirm: typed.trim() });
          }}
        >
          <label className="flex flex-col gap-1 text-xs">
            Type the project&apos;s name, {project}, to confirm
            <input
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              className="border-border bg-surface w-64 rounded border px-2 py-1 text-sm"
              data-testid="delete-project-confirm"
            />
          </label>
          <button
            type="submit"
            disabled={!matches || remove.isPending}
            className="border-bad text-bad hover:bg-bad/10 rounded-md border px-3 py-1.5 font-medium disabled:cursor-not-allowed disabled:opacity-50"
          >
            {remove.isPending ? "Deleting…" : "Delete this project"}
          </button>
        </form>
        {remove.error && <Problem error={remove.error} />}
      </div>
    </Card>
  );
}

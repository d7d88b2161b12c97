-- The hardware a run was measured on: part of every series' identity (docs/benchmarks.md, "Testbeds").
ALTER TABLE "runs" ADD COLUMN "testbed" TEXT;

-- A series' runs newest first, now with its testbed: the gate's baseline and head rounds.
DROP INDEX "runs_project_id_tool_label_git_branch_started_at_idx";
CREATE INDEX "runs_project_id_tool_label_git_branch_testbed_started_at_idx" ON "runs"("project_id", "tool", "label", "git_branch", "testbed", "started_at" DESC);

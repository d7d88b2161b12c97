-- The CI gate answers one of three outcomes (pass, fail, inconclusive): what an upload answered is the
-- run's outcome (it was "verdict", a word that now means only a comparison's regressed/improved/…).
ALTER TABLE "runs" RENAME COLUMN "verdict" TO "outcome";
ALTER TABLE "runs" RENAME COLUMN "verdict_reasons" TO "outcome_reasons";

-- Whether the run's own gate found a regression: such a run stays out of later baselines until triaged.
ALTER TABLE "runs" ADD COLUMN "regressed" BOOLEAN;

-- A series' runs newest first: the gate's baseline and head rounds.
CREATE INDEX "runs_project_id_tool_label_git_branch_started_at_idx" ON "runs"("project_id", "tool", "label", "git_branch", "started_at" DESC);

-- Each endpoint's gate metric. Alpha is now the family-wise level of one-sided tests over the endpoints'
-- gate metrics, whose default is 0.01 (docs/statistics.md, "The CI gate"). Projects still on the old
-- default (0.05, two-sided over every metric) move to the new one. (No semicolon in a comment here:
-- the schema engine splits a migration into statements at each one.)
ALTER TABLE "projects" ADD COLUMN "gate_metric" TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE "projects" ALTER COLUMN "alpha" SET DEFAULT 0.01;
UPDATE "projects" SET "alpha" = 0.01 WHERE "alpha" = 0.05;

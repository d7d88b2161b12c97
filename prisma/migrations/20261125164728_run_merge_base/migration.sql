-- The merge-base an upload names (base_commit, base_branch, base_time) picks its baseline
-- (server/services/baselines.ts), and a later view of the run's verdict picks the same one.

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "git_base_branch" TEXT,
ADD COLUMN     "git_base_commit" TEXT,
ADD COLUMN     "git_base_time" TIMESTAMPTZ(3);

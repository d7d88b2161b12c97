-- AlterTable
ALTER TABLE "metrics" ADD COLUMN     "exact" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "ab_job" TEXT,
ADD COLUMN     "ab_pair" INTEGER,
ADD COLUMN     "ab_side" TEXT,
ADD COLUMN     "gate_changes" JSONB NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE INDEX "runs_project_id_ab_job_idx" ON "runs"("project_id", "ab_job");

-- DropIndex
DROP INDEX "trend_rollups_project_id_grain_endpoint_id_branch_bucket_st_idx";

-- DropIndex
DROP INDEX "trend_rollups_project_id_grain_endpoint_id_bucket_start_idx";

-- CreateIndex
CREATE INDEX "trend_rollups_scope_idx" ON "trend_rollups"("project_id", "grain", "endpoint_id", "bucket_start", "tool", "branch", "label", "testbed", "runs");

-- CreateIndex
CREATE INDEX "trend_rollups_branch_scope_idx" ON "trend_rollups"("project_id", "grain", "endpoint_id", "branch", "bucket_start", "tool", "label", "testbed", "runs");

-- CreateIndex
CREATE INDEX "trend_rollups_project_id_grain_endpoint_id_branch_bucket_st_idx" ON "trend_rollups"("project_id", "grain", "endpoint_id", "branch", "bucket_start");

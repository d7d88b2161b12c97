-- A result's and a custom metric's run and project in one foreign key, (run_id, project_id) to runs:
-- one check per row where two keys (to the run, to the project) took two. A 10,000-benchmark upload
-- writes some 30,000 rows, and the two checks cost it about 165 ms. The row's project must now be its
-- run's, which the upload always wrote and nothing checked. Deleting a project still removes its results
-- and metrics, through its runs. Adding the keys reads every result and metric once.

-- DropForeignKey
ALTER TABLE "metrics" DROP CONSTRAINT "metrics_project_id_fkey";

-- DropForeignKey
ALTER TABLE "metrics" DROP CONSTRAINT "metrics_run_id_fkey";

-- DropForeignKey
ALTER TABLE "results" DROP CONSTRAINT "results_project_id_fkey";

-- DropForeignKey
ALTER TABLE "results" DROP CONSTRAINT "results_run_id_fkey";

-- CreateIndex
CREATE UNIQUE INDEX "runs_id_project_id_key" ON "runs"("id", "project_id");

-- AddForeignKey
ALTER TABLE "results" ADD CONSTRAINT "results_run_id_project_id_fkey" FOREIGN KEY ("run_id", "project_id") REFERENCES "runs"("id", "project_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metrics" ADD CONSTRAINT "metrics_run_id_project_id_fkey" FOREIGN KEY ("run_id", "project_id") REFERENCES "runs"("id", "project_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The trend page's overlay of a pull request's runs (?overlay=pr:<n>) reads them by this index, newest
-- first, as a branch overlay reads runs_project_id_git_branch_started_at_idx. The overlay select's list
-- of pull requests reads it too.

-- CreateIndex
CREATE INDEX "runs_project_id_pull_request_started_at_idx" ON "runs"("project_id", "pull_request", "started_at" DESC);

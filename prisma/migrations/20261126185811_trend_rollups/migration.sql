-- CreateTable
CREATE TABLE "trend_rollups" (
    "id" SERIAL NOT NULL,
    "project_id" TEXT NOT NULL,
    "series_key" TEXT NOT NULL,
    "endpoint_id" INTEGER,
    "tool" TEXT NOT NULL,
    "label" TEXT,
    "branch" TEXT,
    "testbed" TEXT,
    "grain" TEXT NOT NULL,
    "bucket_start" TIMESTAMPTZ(3) NOT NULL,
    "runs" INTEGER NOT NULL,
    "requests" DOUBLE PRECISION,
    "failures" DOUBLE PRECISION,
    "first_run_at" TIMESTAMPTZ(3) NOT NULL,
    "last_run_at" TIMESTAMPTZ(3) NOT NULL,
    "stats" JSONB NOT NULL,
    "metrics" JSONB NOT NULL DEFAULT '{}',
    "histogram" JSONB,

    CONSTRAINT "trend_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trend_rollup_pending" (
    "id" SERIAL NOT NULL,
    "project_id" TEXT NOT NULL,
    "week_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trend_rollup_pending_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "trend_rollups_project_id_grain_endpoint_id_bucket_start_idx" ON "trend_rollups"("project_id", "grain", "endpoint_id", "bucket_start");

-- CreateIndex
CREATE UNIQUE INDEX "trend_rollups_project_id_series_key_grain_bucket_start_key" ON "trend_rollups"("project_id", "series_key", "grain", "bucket_start");

-- CreateIndex
CREATE INDEX "trend_rollup_pending_project_id_week_start_idx" ON "trend_rollup_pending"("project_id", "week_start");

-- AddForeignKey
ALTER TABLE "trend_rollups" ADD CONSTRAINT "trend_rollups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trend_rollup_pending" ADD CONSTRAINT "trend_rollup_pending_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: every week of every stored history is pending, so the trend page reads it from the raw
-- rows (as before) until the refresh-rollups job, queued for each such project when workers start,
-- has summarised it (docs/rollups.md, "Backfill").
INSERT INTO "trend_rollup_pending" ("project_id", "week_start")
SELECT DISTINCT "project_id", date_trunc('week', "started_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM "results";

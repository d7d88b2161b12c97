-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Better" AS ENUM ('lower', 'higher');

-- CreateEnum
CREATE TYPE "RegressionKind" AS ENUM ('regression', 'improvement');

-- CreateEnum
CREATE TYPE "RegressionStatus" AS ENUM ('open', 'acknowledged', 'dismissed');

-- CreateTable
CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "default_branch" TEXT NOT NULL DEFAULT 'main',
    "repo_url" TEXT,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "min_effect_pct" DOUBLE PRECISION NOT NULL DEFAULT 5,
    "alpha" DOUBLE PRECISION NOT NULL DEFAULT 0.05,
    "fail_on" TEXT[] DEFAULT ARRAY['regression', 'sla']::TEXT[],
    "webhook_url" TEXT,
    "raw_retention_days" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "tool_version" TEXT,
    "format" TEXT NOT NULL,
    "parser_version" INTEGER NOT NULL DEFAULT 1,
    "label" TEXT,
    "round" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_seconds" DOUBLE PRECISION,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "git_commit" TEXT,
    "git_branch" TEXT,
    "pull_request" INTEGER,
    "build_url" TEXT,
    "host_name" TEXT,
    "host_cpus" INTEGER,
    "host_memory_gb" DOUBLE PRECISION,
    "app_version" TEXT,
    "config" JSONB NOT NULL DEFAULT '{}',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "thresholds" JSONB NOT NULL DEFAULT '[]',
    "checks" JSONB NOT NULL DEFAULT '[]',
    "notes" JSONB NOT NULL DEFAULT '[]',
    "idempotency_key" TEXT,
    "body_sha256" TEXT,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "raw_uploads" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "file_name" TEXT,
    "content_type" TEXT,
    "size_bytes" INTEGER NOT NULL,
    "gzip_data" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "raw_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoints" (
    "id" SERIAL NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "full_name" TEXT,
    "protocol" TEXT,
    "method" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "results" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "endpoint_id" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "requests" INTEGER,
    "failures" INTEGER,
    "error_rate" DOUBLE PRECISION,
    "throughput" DOUBLE PRECISION,
    "min_ms" DOUBLE PRECISION,
    "mean_ms" DOUBLE PRECISION,
    "p50_ms" DOUBLE PRECISION,
    "p90_ms" DOUBLE PRECISION,
    "p95_ms" DOUBLE PRECISION,
    "p99_ms" DOUBLE PRECISION,
    "max_ms" DOUBLE PRECISION,
    "std_dev_ms" DOUBLE PRECISION,
    "percentiles" JSONB NOT NULL DEFAULT '{}',
    "histogram" JSONB,
    "status_codes" JSONB,
    "errors" JSONB,

    CONSTRAINT "results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metrics" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "endpoint_id" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "key" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "unit" TEXT,
    "better" "Better" NOT NULL,

    CONSTRAINT "metrics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sla_policies" (
    "project_id" TEXT NOT NULL,
    "targets" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sla_policies_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "baseline_pins" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "for_label" TEXT,
    "run_ids" TEXT[],
    "baseline_label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "baseline_pins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "regressions" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "endpoint_id" INTEGER,
    "metric" TEXT NOT NULL,
    "kind" "RegressionKind" NOT NULL,
    "first_run_id" TEXT NOT NULL,
    "before_value" DOUBLE PRECISION NOT NULL,
    "after_value" DOUBLE PRECISION NOT NULL,
    "delta_pct" DOUBLE PRECISION NOT NULL,
    "p_value" DOUBLE PRECISION,
    "detector_version" INTEGER NOT NULL DEFAULT 1,
    "status" "RegressionStatus" NOT NULL DEFAULT 'open',
    "status_changed_at" TIMESTAMPTZ(3),
    "status_changed_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "regressions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "annotations" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "annotations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "regression_id" TEXT,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_project_id_idx" ON "api_tokens"("project_id");

-- CreateIndex
CREATE INDEX "runs_project_id_started_at_id_idx" ON "runs"("project_id", "started_at" DESC, "id");

-- CreateIndex
CREATE INDEX "runs_project_id_git_branch_started_at_idx" ON "runs"("project_id", "git_branch", "started_at" DESC);

-- CreateIndex
CREATE INDEX "runs_project_id_label_started_at_idx" ON "runs"("project_id", "label", "started_at" DESC);

-- CreateIndex
CREATE INDEX "runs_project_id_tool_started_at_idx" ON "runs"("project_id", "tool", "started_at" DESC);

-- CreateIndex
CREATE INDEX "runs_project_id_git_commit_idx" ON "runs"("project_id", "git_commit");

-- CreateIndex
CREATE UNIQUE INDEX "runs_project_id_idempotency_key_key" ON "runs"("project_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "raw_uploads_run_id_position_key" ON "raw_uploads"("run_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "endpoints_project_id_name_key" ON "endpoints"("project_id", "name");

-- CreateIndex
CREATE INDEX "results_run_id_idx" ON "results"("run_id");

-- CreateIndex
CREATE INDEX "results_project_id_endpoint_id_started_at_idx" ON "results"("project_id", "endpoint_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "metrics_run_id_idx" ON "metrics"("run_id");

-- CreateIndex
CREATE INDEX "metrics_project_id_key_endpoint_id_started_at_idx" ON "metrics"("project_id", "key", "endpoint_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "baseline_pins_project_id_for_label_idx" ON "baseline_pins"("project_id", "for_label");

-- CreateIndex
CREATE INDEX "regressions_project_id_status_created_at_idx" ON "regressions"("project_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "regressions_first_run_id_idx" ON "regressions"("first_run_id");

-- CreateIndex
CREATE INDEX "annotations_project_id_run_id_idx" ON "annotations"("project_id", "run_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_project_id_created_at_idx" ON "webhook_deliveries"("project_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "raw_uploads" ADD CONSTRAINT "raw_uploads_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "results" ADD CONSTRAINT "results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "results" ADD CONSTRAINT "results_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "results" ADD CONSTRAINT "results_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metrics" ADD CONSTRAINT "metrics_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metrics" ADD CONSTRAINT "metrics_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metrics" ADD CONSTRAINT "metrics_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sla_policies" ADD CONSTRAINT "sla_policies_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "baseline_pins" ADD CONSTRAINT "baseline_pins_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "regressions" ADD CONSTRAINT "regressions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "regressions" ADD CONSTRAINT "regressions_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "regressions" ADD CONSTRAINT "regressions_first_run_id_fkey" FOREIGN KEY ("first_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_regression_id_fkey" FOREIGN KEY ("regression_id") REFERENCES "regressions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "retention_days" INTEGER,
ADD COLUMN     "retention_keep_runs" INTEGER;

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "project_slug" TEXT,
    "target_id" TEXT,
    "detail" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_project_slug_at_idx" ON "audit_entries"("project_slug", "at" DESC);

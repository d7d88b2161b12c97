-- Markers at a time or on a run, with a kind (note, deploy, change): POST /api/v1/projects/:p/annotations.
-- A "change" splits change-point detection windows (server/services/regression-detection.ts).
-- Existing annotations are notes on runs: their time is their run's start.

-- CreateEnum
CREATE TYPE "AnnotationKind" AS ENUM ('note', 'deploy', 'change');

-- AlterTable
ALTER TABLE "annotations" ADD COLUMN     "at" TIMESTAMPTZ(3),
ADD COLUMN     "kind" "AnnotationKind" NOT NULL DEFAULT 'note',
ALTER COLUMN "run_id" DROP NOT NULL;

UPDATE "annotations" AS a SET "at" = r."started_at" FROM "runs" AS r WHERE r."id" = a."run_id";

ALTER TABLE "annotations" ALTER COLUMN "at" SET NOT NULL;

-- CreateIndex
CREATE INDEX "annotations_project_id_at_idx" ON "annotations"("project_id", "at");

-- CreateEnum
CREATE TYPE "IncidentState" AS ENUM ('open', 'investigating', 'fixed', 'backed_out', 'accepted', 'invalid');

-- AlterTable
ALTER TABLE "regressions" ADD COLUMN     "incident_id" TEXT,
ADD COLUMN     "return_run_id" TEXT;

-- CreateTable
CREATE TABLE "incidents" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "first_run_id" TEXT NOT NULL,
    "state" "IncidentState" NOT NULL DEFAULT 'open',
    "note" TEXT,
    "links" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "detector_version" INTEGER NOT NULL,
    "state_changed_at" TIMESTAMPTZ(3),
    "state_changed_by" TEXT,
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_events" (
    "id" TEXT NOT NULL,
    "incident_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "by" TEXT NOT NULL,
    "from_state" "IncidentState",
    "to_state" "IncidentState",
    "note" TEXT,

    CONSTRAINT "incident_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "incidents_project_id_state_created_at_idx" ON "incidents"("project_id", "state", "created_at" DESC);

-- CreateIndex
CREATE INDEX "incidents_first_run_id_idx" ON "incidents"("first_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "incidents_project_id_number_key" ON "incidents"("project_id", "number");

-- CreateIndex
CREATE INDEX "incident_events_incident_id_at_idx" ON "incident_events"("incident_id", "at");

-- CreateIndex
CREATE INDEX "regressions_incident_id_idx" ON "regressions"("incident_id");

-- AddForeignKey
ALTER TABLE "regressions" ADD CONSTRAINT "regressions_return_run_id_fkey" FOREIGN KEY ("return_run_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "regressions" ADD CONSTRAINT "regressions_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_first_run_id_fkey" FOREIGN KEY ("first_run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the regressions recorded before incidents were kept become incidents, one per step (the
-- regressions a change opened at one first run), numbered by when they were opened. Their state follows
-- what was decided: every regression dismissed → invalid, any acknowledged → accepted, else open, and its regressions follow it (below).
WITH steps AS (
  SELECT
    project_id,
    first_run_id,
    MIN(created_at) AS created_at,
    MIN(detector_version) AS detector_version,
    BOOL_AND(status = 'dismissed') AS all_dismissed,
    BOOL_OR(status = 'acknowledged') AS any_acknowledged,
    MAX(status_changed_at) AS changed_at,
    (ARRAY_AGG(status_changed_by ORDER BY status_changed_at DESC NULLS LAST))[1] AS changed_by
  FROM "regressions"
  WHERE kind = 'regression'
  GROUP BY project_id, first_run_id
)
INSERT INTO "incidents" (id, project_id, number, first_run_id, state, detector_version, state_changed_at, state_changed_by, closed_at, created_at)
SELECT
  'inc_' || md5(project_id || ':' || first_run_id),
  project_id,
  ROW_NUMBER() OVER (PARTITION BY project_id ORDER BY created_at, first_run_id),
  first_run_id,
  (CASE WHEN all_dismissed THEN 'invalid' WHEN any_acknowledged THEN 'accepted' ELSE 'open' END)::"IncidentState",
  detector_version,
  CASE WHEN all_dismissed OR any_acknowledged THEN changed_at END,
  CASE WHEN all_dismissed OR any_acknowledged THEN changed_by END,
  CASE WHEN all_dismissed OR any_acknowledged THEN changed_at END,
  created_at
FROM steps;

UPDATE "regressions" r SET incident_id = 'inc_' || md5(r.project_id || ':' || r.first_run_id)
WHERE r.kind = 'regression';

-- Each regression of a backfilled incident now reads as its incident decided (what the CI gate reads),
-- and each incident's history starts with its opening by the detector.
UPDATE "regressions" r
SET status = (CASE i.state WHEN 'accepted' THEN 'acknowledged' WHEN 'invalid' THEN 'dismissed' ELSE 'open' END)::"RegressionStatus"
FROM "incidents" i
WHERE r.incident_id = i.id AND r.status::text <> (CASE i.state WHEN 'accepted' THEN 'acknowledged' WHEN 'invalid' THEN 'dismissed' ELSE 'open' END);

INSERT INTO "incident_events" (id, incident_id, at, by, to_state)
SELECT 'evt_' || md5(i.id), i.id, i.created_at, 'detector', 'open'::"IncidentState" FROM "incidents" i;

-- CreateEnum
CREATE TYPE "HistoryChangeKind" AS ENUM ('runs', 'results', 'metrics', 'rewrite');

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "history_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "history_changes" (
    "project_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" "HistoryChangeKind" NOT NULL,
    "run_ids" TEXT[],

    CONSTRAINT "history_changes_pkey" PRIMARY KEY ("project_id","version")
);

-- AddForeignKey
ALTER TABLE "history_changes" ADD CONSTRAINT "history_changes_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The history version is moved by triggers, so no write path can forget it: every statement that
-- inserts, updates, deletes or truncates runs, results or metrics moves its projects' version once, in
-- its own transaction, and logs what it wrote (docs/architecture.md, "The history version").
-- Function bodies are E'' strings whose semicolons are written \073: the PostgreSQL migration path
-- splits a script at every semicolon, quoted or not.

-- Moves one project's version by one, logs the change, and keeps the project's latest 1,000 changes.
CREATE FUNCTION "history_move"(moved_project TEXT, moved_kind "HistoryChangeKind", moved_runs TEXT[]) RETURNS void LANGUAGE sql AS E'
  WITH moved AS (
    UPDATE projects SET history_version = history_version + 1 WHERE id = moved_project RETURNING history_version
  ), logged AS (
    INSERT INTO history_changes (project_id, version, kind, run_ids)
    SELECT moved_project, moved.history_version, moved_kind, moved_runs FROM moved
  )
  DELETE FROM history_changes h USING moved
   WHERE h.project_id = moved_project AND h.version <= moved.history_version - 1000';

-- Results or metrics inserted (TG_ARGV[0]: which): their runs, per project.
CREATE FUNCTION "history_appended"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN
  PERFORM history_move(project_id, TG_ARGV[0]::"HistoryChangeKind", array_agg(DISTINCT run_id ORDER BY run_id))
     FROM changed_rows GROUP BY project_id\073
  RETURN NULL\073
END';

-- Runs inserted ("runs"), or rows deleted ("rewrite"): the projects they belong to.
CREATE FUNCTION "history_moved"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN
  PERFORM history_move(project_id, TG_ARGV[0]::"HistoryChangeKind", ARRAY[]::text[])
     FROM (SELECT DISTINCT project_id FROM changed_rows) changed\073
  RETURN NULL\073
END';

-- Rows updated: the projects they belonged to and belong to.
CREATE FUNCTION "history_updated"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN
  PERFORM history_move(project_id, ''rewrite'', ARRAY[]::text[])
     FROM (SELECT project_id FROM old_rows UNION SELECT project_id FROM new_rows) changed\073
  RETURN NULL\073
END';

-- A table truncated: every project.
CREATE FUNCTION "history_truncated"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN
  PERFORM history_move(id, ''rewrite'', ARRAY[]::text[]) FROM projects\073
  RETURN NULL\073
END';

CREATE TRIGGER "runs_history_inserted" AFTER INSERT ON "runs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_moved"('runs');
CREATE TRIGGER "runs_history_updated" AFTER UPDATE ON "runs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_updated"();
CREATE TRIGGER "runs_history_deleted" AFTER DELETE ON "runs" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_moved"('rewrite');
CREATE TRIGGER "runs_history_truncated" AFTER TRUNCATE ON "runs" FOR EACH STATEMENT EXECUTE FUNCTION "history_truncated"();

CREATE TRIGGER "results_history_inserted" AFTER INSERT ON "results" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_appended"('results');
CREATE TRIGGER "results_history_updated" AFTER UPDATE ON "results" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_updated"();
CREATE TRIGGER "results_history_deleted" AFTER DELETE ON "results" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_moved"('rewrite');
CREATE TRIGGER "results_history_truncated" AFTER TRUNCATE ON "results" FOR EACH STATEMENT EXECUTE FUNCTION "history_truncated"();

CREATE TRIGGER "metrics_history_inserted" AFTER INSERT ON "metrics" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_appended"('metrics');
CREATE TRIGGER "metrics_history_updated" AFTER UPDATE ON "metrics" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_updated"();
CREATE TRIGGER "metrics_history_deleted" AFTER DELETE ON "metrics" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "history_moved"('rewrite');
CREATE TRIGGER "metrics_history_truncated" AFTER TRUNCATE ON "metrics" FOR EACH STATEMENT EXECUTE FUNCTION "history_truncated"();

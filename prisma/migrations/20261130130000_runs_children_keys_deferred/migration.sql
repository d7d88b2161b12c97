-- Results', custom metrics' and raw files' keys to their run are checked when the transaction commits
-- (DEFERRABLE INITIALLY DEFERRED), not at the end of each statement: an upload writes a run's rows while
-- its gate judges it (server/services/ingest/store-run.ts writeRunRows), and the run row with the gate's
-- result after (writeRunRow), so the run is written once, complete. The same checks, the same cost, and
-- a row without its run still never commits. Schema.prisma has no word for deferrable keys: prisma
-- migrate diff does not see it.

ALTER TABLE "results" ALTER CONSTRAINT "results_run_id_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE "metrics" ALTER CONSTRAINT "metrics_run_id_project_id_fkey" DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE "raw_uploads" ALTER CONSTRAINT "raw_uploads_run_id_fkey" DEFERRABLE INITIALLY DEFERRED;

-- The history version moves once per transaction and project (docs/architecture.md, "The history
-- version"): an upload inserts its run, results and metrics in one transaction, and the projects row
-- was written once per table (and once more for updated_at). Now the first move of a transaction
-- bumps the version, sets updated_at (an insert: the project has news) and logs the change, a later
-- move of the same project in the same transaction folds into that logged change (its kind the
-- strongest seen, rewrite > results > metrics > runs, with the run ids of the moves of that kind), so the
-- projects row is written once. The transaction is told apart by a transaction-local setting
-- (rolled back with a savepoint, as the write it marks).
-- Function bodies are E-quoted strings whose semicolons are written \073: the PostgreSQL migration path
-- splits a script at every semicolon, quoted or not.
CREATE OR REPLACE FUNCTION "history_move"(moved_project TEXT, moved_kind "HistoryChangeKind", moved_runs TEXT[]) RETURNS void LANGUAGE plpgsql AS E'
DECLARE
  this_move TEXT := moved_project || ''@'' || txid_current()::text\073
  rank_of CONSTANT TEXT[] := ARRAY[''runs'', ''metrics'', ''results'', ''rewrite'']\073
BEGIN
  IF coalesce(current_setting(''benchtrack.history_moved'', true), '''') = this_move THEN
    UPDATE history_changes h
       SET kind = CASE WHEN array_position(rank_of, moved_kind::text) > array_position(rank_of, h.kind::text) THEN moved_kind ELSE h.kind END,
           run_ids = CASE
             WHEN moved_kind = ''rewrite'' OR h.kind = ''rewrite'' THEN ARRAY[]::text[]
             WHEN moved_kind = h.kind THEN ARRAY(SELECT DISTINCT unnest(h.run_ids || moved_runs) ORDER BY 1)
             WHEN array_position(rank_of, moved_kind::text) > array_position(rank_of, h.kind::text) THEN moved_runs
             ELSE h.run_ids END
      FROM projects p
     WHERE p.id = moved_project AND h.project_id = moved_project AND h.version = p.history_version\073
    RETURN\073
  END IF\073
  WITH moved AS (
    UPDATE projects SET history_version = history_version + 1,
                        updated_at = CASE WHEN moved_kind = ''rewrite'' THEN updated_at ELSE now() END
     WHERE id = moved_project RETURNING history_version
  ), logged AS (
    INSERT INTO history_changes (project_id, version, kind, run_ids)
    SELECT moved_project, moved.history_version, moved_kind, moved_runs FROM moved
  )
  DELETE FROM history_changes h USING moved
   WHERE h.project_id = moved_project AND h.version <= moved.history_version - 1000\073
  PERFORM set_config(''benchtrack.history_moved'', this_move, true)\073
END';

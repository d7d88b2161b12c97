-- An endpoint's identity is its name AND its protocol (docs/statistics.md, "Series"): gRPC GetListing
-- and HTTP GetListing are two endpoints. Endpoints that were merged by name are split here: each
-- result moves to the endpoint of the protocol it was measured with (the run's protocol, or, for runs
-- stored before runs.protocol existed, the tool's: ghz speaks gRPC, k6 and Locust HTTP). Results of
-- runs whose protocol is unknown stay with their endpoint. Custom metrics and regressions follow
-- the result of their run.

-- DropIndex
DROP INDEX "endpoints_project_id_name_key";

CREATE TEMP TABLE "endpoint_split" AS
SELECT r.id AS result_id, r.endpoint_id, r.run_id, r.started_at,
       COALESCE(ru.protocol, CASE ru.tool WHEN 'ghz' THEN 'grpc' WHEN 'k6' THEN 'http' WHEN 'locust' THEN 'http' END) AS protocol
  FROM results r
  JOIN runs ru ON ru.id = r.run_id
 WHERE r.endpoint_id IS NOT NULL;

-- An endpoint none of whose results used its recorded protocol takes its earliest result's.
UPDATE endpoints e
   SET protocol = first.protocol
  FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, protocol
          FROM "endpoint_split"
         WHERE protocol IS NOT NULL
         ORDER BY endpoint_id, started_at, result_id) first
 WHERE first.endpoint_id = e.id
   AND NOT EXISTS (SELECT 1 FROM "endpoint_split" s WHERE s.endpoint_id = e.id AND s.protocol = e.protocol);

-- Results of an unknown protocol follow their endpoint.
UPDATE "endpoint_split" s SET protocol = e.protocol FROM endpoints e WHERE e.id = s.endpoint_id AND s.protocol IS NULL;

-- One new endpoint per other protocol an endpoint's results were measured with.
INSERT INTO endpoints (project_id, name, full_name, protocol, method, created_at)
SELECT e.project_id, e.name, e.full_name, s.protocol, CASE WHEN s.protocol = 'http' THEN e.method END, min(s.started_at)
  FROM "endpoint_split" s
  JOIN endpoints e ON e.id = s.endpoint_id
 WHERE s.protocol IS DISTINCT FROM e.protocol
 GROUP BY e.id, e.project_id, e.name, e.full_name, e.method, s.protocol;

UPDATE results r
   SET endpoint_id = n.id
  FROM "endpoint_split" s
  JOIN endpoints e ON e.id = s.endpoint_id
  JOIN endpoints n ON n.project_id = e.project_id AND n.name = e.name AND n.protocol = s.protocol AND n.id <> e.id
 WHERE r.id = s.result_id
   AND s.protocol IS DISTINCT FROM e.protocol;

UPDATE metrics m
   SET endpoint_id = r.endpoint_id
  FROM "endpoint_split" s
  JOIN results r ON r.id = s.result_id
 WHERE m.run_id = s.run_id AND m.endpoint_id = s.endpoint_id AND r.endpoint_id <> s.endpoint_id;

UPDATE regressions g
   SET endpoint_id = r.endpoint_id
  FROM "endpoint_split" s
  JOIN results r ON r.id = s.result_id
 WHERE g.first_run_id = s.run_id AND g.endpoint_id = s.endpoint_id AND r.endpoint_id <> s.endpoint_id;

DROP TABLE "endpoint_split";

-- CreateIndex (NULLS NOT DISTINCT: one endpoint per name among those of no stated protocol)
CREATE UNIQUE INDEX "endpoints_project_id_name_protocol_key" ON "endpoints"("project_id", "name", "protocol") NULLS NOT DISTINCT;

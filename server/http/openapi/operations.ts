import { livenessSchema, readinessSchema } from "../../schemas/operations";
import type { ApiResource } from "./building-blocks";
import { answer, jsonContent, operation, ref, success } from "./building-blocks";

/** Probes and metrics for running Benchtrack (docs/operations.md, "Probes and metrics"): open to load balancers, metrics with a token. */
export const operationsResource: ApiResource = {
  schemas: { Liveness: answer(livenessSchema), Readiness: answer(readinessSchema) },
  paths: {
    "/api/health": {
      get: operation({
        operationId: "getHealth",
        tag: "operations",
        summary: "Liveness: the process answers (no database call)",
        description: "Open on every server, private ones too, and never rate-limited.",
        security: "none",
        responses: { "200": success("The process answers.", "Liveness") },
      }),
    },
    "/api/ready": {
      get: operation({
        operationId: "getReadiness",
        tag: "operations",
        summary: "Readiness: database reachable, migrations applied, job workers running, not shutting down",
        description: "Open on every server, private ones too, and never rate-limited. Each check says why it fails.",
        security: "none",
        responses: {
          "200": success("Ready: every check passes.", "Readiness"),
          "503": { description: "Not ready: the checks say which fails and why.", content: jsonContent(ref("schemas", "Readiness")) },
        },
      }),
    },
    "/metrics": {
      get: operation({
        operationId: "getMetrics",
        tag: "operations",
        summary: "Prometheus metrics (text format)",
        description: "Readable with the admin token or BENCHTRACK_METRICS_TOKEN as a bearer token. Never rate-limited.",
        security: "token",
        responses: {
          "200": { description: "The metrics, in Prometheus's text exposition format 0.0.4.", content: { "text/plain": { schema: { type: "string" } } } },
        },
        errors: ["Unauthorized"],
      }),
    },
  },
};

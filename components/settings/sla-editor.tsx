"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { SLA_SUGGESTED_METRICS } from "@/server/domain/metrics";
import type { SlaTargetInput } from "@/server/domain/sla/policy";
import { Problem } from "./problem";

type ScopeKind = "endpoints" | "aggregate" | "match";
interface Row {
  metric: string;
  op: "<=" | "<" | ">=" | ">";
  threshold: string;
  unit: string;
  scope: ScopeKind;
  match: string;
  weight: string;
}

const DEFAULT_UNIT: Record<string, string> = { errorRate: "", throughput: "req/s" };

function toRow(target: SlaTargetInput): Row {
  const scope = target.scope ?? "endpoints";
  return {
    metric: target.metric,
    op: target.op,
    threshold: String(target.threshold),
    unit: target.unit ?? (target.metric in DEFAULT_UNIT ? DEFAULT_UNIT[target.metric]! : "ms"),
    scope: typeof scope === "string" ? scope : "match",
    match: typeof scope === "string" ? "" : scope.match,
    weight: String(target.weight ?? 1),
  };
}

/** A row as the server reads it; the metric is as typed: the server checks it and names the path at fault. */
function toTarget(row: Row): SlaTargetInput {
  return {
    metric: row.metric.trim() as SlaTargetInput["metric"],
    op: row.op,
    threshold: Number(row.threshold),
    ...(row.unit.trim() && { unit: row.unit.trim() }),
    scope: row.scope === "match" ? { match: row.match } : row.scope,
    weight: Number(row.weight || "1"),
  };
}

const INPUT = "rounded border border-border bg-surface px-2 py-1 text-sm";

/** Edits the project's SLA targets; the server validates and answers with the path at fault. */
export function SlaEditor({ project, initial }: { project: string; initial: SlaTargetInput[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>(initial.map(toRow));
  const save = useMutation(
    trpc.settings.setSlaPolicy.mutationOptions({
      // The page's "current SLA targets" come from settings.get.
      onSuccess: () => queryClient.invalidateQueries(trpc.settings.get.queryFilter({ project })),
    }),
  );
  const update = (index: number, changes: Partial<Row>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...changes } : row)));

  return (
    <div className="space-y-3" data-testid="sla-editor">
      {rows.length === 0 && <p className="text-sm text-text-muted">No targets: runs are not graded (“no SLA”).</p>}
      {rows.map((row, index) => (
        <fieldset key={index} className="flex flex-wrap items-end gap-2 rounded-md border border-border p-2" aria-label={`Target ${index + 1}`}>
          <label className="flex flex-col text-xs">
            metric
            <input list="sla-metrics" value={row.metric} onChange={(event) => update(index, { metric: event.target.value })} className={`${INPUT} w-32`} />
          </label>
          <label className="flex flex-col text-xs">
            op
            <select value={row.op} onChange={(event) => update(index, { op: event.target.value as Row["op"] })} className={INPUT}>
              {["<=", "<", ">=", ">"].map((op) => (
                <option key={op}>{op}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-xs">
            threshold
            <input inputMode="decimal" value={row.threshold} onChange={(event) => update(index, { threshold: event.target.value })} className={`${INPUT} w-24`} />
          </label>
          <label className="flex flex-col text-xs">
            unit
            <input value={row.unit} placeholder={row.metric === "errorRate" ? "fraction" : "ms"} onChange={(event) => update(index, { unit: event.target.value })} className={`${INPUT} w-20`} />
          </label>
          <label className="flex flex-col text-xs">
            scope
            <select value={row.scope} onChange={(event) => update(index, { scope: event.target.value as ScopeKind })} className={INPUT}>
              <option value="endpoints">every endpoint</option>
              <option value="aggregate">aggregate</option>
              <option value="match">endpoints matching</option>
            </select>
          </label>
          {row.scope === "match" && (
            <label className="flex flex-col text-xs">
              glob
              <input value={row.match} placeholder="Get*" onChange={(event) => update(index, { match: event.target.value })} className={`${INPUT} w-28`} />
            </label>
          )}
          <label className="flex flex-col text-xs">
            weight
            <input inputMode="decimal" value={row.weight} onChange={(event) => update(index, { weight: event.target.value })} className={`${INPUT} w-16`} />
          </label>
          <button type="button" onClick={() => setRows((current) => current.filter((_, at) => at !== index))} className="rounded border border-border px-2 py-1 text-xs text-text-muted hover:text-bad">
            Remove
          </button>
        </fieldset>
      ))}
      <datalist id="sla-metrics">
        {SLA_SUGGESTED_METRICS.map((metric) => (
          <option key={metric} value={metric} />
        ))}
      </datalist>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => setRows((current) => [...current, toRow({ metric: "p95", op: "<=", threshold: 50, unit: "ms" })])}
          className="rounded-md border border-border px-3 py-1.5 text-sm"
        >
          Add target
        </button>
        <button
          type="button"
          onClick={() => save.mutate({ project, targets: rows.map(toTarget) })}
          disabled={save.isPending}
          className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text disabled:opacity-60"
        >
          {save.isPending ? "Saving…" : "Save policy"}
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-good">
            Saved. Every run is now graded against this policy.
          </span>
        )}
      </div>
      {save.error && <Problem error={save.error} />}
      <p className="text-xs text-text-muted">
        Latency thresholds in s, ms or us; error rate as a fraction (0.01 = 1%); throughput in req/s; custom metrics as
        <code> metrics.&lt;key&gt;</code>. Grade: A = 100% of weighted checks pass, B ≥ 90%, C ≥ 75%, D ≥ 50%, F below.
      </p>
    </div>
  );
}

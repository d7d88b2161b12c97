"use client";

import type { ReactNode } from "react";
import { cn } from "@/components/lib/cn";
import { METRICS } from "@/server/domain/metrics";
import { TREND_RANGES } from "@/server/domain/series/trend-series";
import type { TrendLine, TrendRange, TrendXMode } from "@/server/domain/series/trend-series";
import { TREND_LINE_STYLE } from "./trend-lines";

const RANGE_LABEL: Record<TrendRange, string> = { "30d": "30 days", "90d": "90 days", "1y": "1 year", all: "All" };

/** A row of pressed/unpressed buttons: one choice of several, reachable by keyboard. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: readonly { value: T; text: string }[];
  value: T;
  onChange: (value: T) => void;
  testId?: string;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="border-border bg-surface inline-flex rounded-md border p-0.5"
      data-testid={testId}
    >
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            "rounded px-2.5 py-1 text-xs font-medium",
            option.value === value ? "bg-accent text-accent-text" : "text-text-muted hover:text-text",
          )}
        >
          {option.text}
        </button>
      ))}
    </div>
  );
}

export function LabeledSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs">
      <label htmlFor={id} className="text-text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="border-border bg-surface text-text max-w-44 min-w-0 truncate rounded-md border px-2 py-1 text-xs"
      >
        {children}
      </select>
    </div>
  );
}

/** Filters that change which runs are read: range, label and tool (each a new server query); branches: branch-controls.tsx. */
export function TrendFilters({
  range,
  label,
  labels,
  tool,
  tools,
  onRange,
  onLabel,
  onTool,
}: {
  range: TrendRange;
  label: string | null;
  labels: readonly string[];
  /** The tool drawn; null: every tool. */
  tool: string | null;
  tools: readonly string[];
  onRange: (range: TrendRange) => void;
  onLabel: (label: string | null) => void;
  /** A tool, or "all". */
  onTool: (tool: string) => void;
}) {
  // A value from the URL that no run has any more stays selectable, so the select never lies.
  const labelOptions = label !== null && !labels.includes(label) ? [label, ...labels] : labels;
  const toolOptions = tool !== null && !tools.includes(tool) ? [tool, ...tools] : tools;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="trend-filters">
      <Segmented
        label="Time range"
        options={TREND_RANGES.map((value) => ({ value, text: RANGE_LABEL[value] }))}
        value={range}
        onChange={onRange}
        testId="trend-range"
      />
      <LabeledSelect
        id="trend-label"
        label="Label"
        value={label ?? ""}
        onChange={(value) => onLabel(value === "" ? null : value)}
      >
        <option value="">All labels</option>
        {labelOptions.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </LabeledSelect>
      <LabeledSelect id="trend-tool" label="Tool" value={tool ?? "all"} onChange={onTool}>
        <option value="all">All tools (mixed series)</option>
        {toolOptions.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </LabeledSelect>
    </div>
  );
}

/**
 * The overlay select: a branch's or a pull request's runs drawn over the base branch's series
 * (`overlay=branch:<name>` or `pr:<n>`), from the project's own branches and PRs.
 */
export function OverlaySelect({
  value,
  baseBranch,
  branches,
  pullRequests,
  onChange,
}: {
  value: string | null;
  baseBranch: string;
  branches: readonly string[];
  pullRequests: readonly number[];
  onChange: (overlay: string | null) => void;
}) {
  const branchValues = branches.filter((branch) => branch !== baseBranch).map((branch) => `branch:${branch}`);
  const prValues = pullRequests.map((pr) => `pr:${pr}`);
  const isKnown = value === null || branchValues.includes(value) || prValues.includes(value);
  return (
    <LabeledSelect
      id="trend-overlay"
      label={`Overlay on ${baseBranch}`}
      value={value ?? ""}
      onChange={(next) => onChange(next === "" ? null : next)}
    >
      <option value="">None</option>
      {!isKnown && value !== null && <option value={value}>{value}</option>}
      {branchValues.length > 0 && (
        <optgroup label="Branches">
          {branchValues.map((option) => (
            <option key={option} value={option}>
              {option.slice("branch:".length)}
            </option>
          ))}
        </optgroup>
      )}
      {prValues.length > 0 && (
        <optgroup label="Pull requests">
          {pullRequests.map((pr) => (
            <option key={pr} value={`pr:${pr}`}>
              PR #{pr}
            </option>
          ))}
        </optgroup>
      )}
    </LabeledSelect>
  );
}

export function XModeToggle({ value, onChange }: { value: TrendXMode; onChange: (mode: TrendXMode) => void }) {
  return (
    <Segmented
      label="X axis"
      options={[
        { value: "time", text: "Time" },
        { value: "order", text: "Run order" },
      ]}
      value={value}
      onChange={onChange}
      testId="trend-x-mode"
    />
  );
}

/**
 * The latency chart's legend, as toggle buttons: each shows its line's colour and switches it on or
 * off. The last line left on cannot be switched off (a chart with no line is an empty chart).
 */
export function LineToggles({
  available,
  enabled,
  onToggle,
}: {
  available: readonly TrendLine[];
  enabled: readonly TrendLine[];
  onToggle: (line: TrendLine) => void;
}) {
  return (
    <div role="group" aria-label="Latency lines" className="flex flex-wrap gap-1.5" data-testid="trend-line-toggles">
      {available.map((line) => {
        const style = TREND_LINE_STYLE[line];
        const { name } = METRICS[line];
        const isOn = enabled.includes(line);
        const isLast = isOn && enabled.length === 1;
        return (
          <button
            key={line}
            type="button"
            aria-pressed={isOn}
            disabled={isLast}
            title={isLast ? "At least one line stays on" : `${isOn ? "Hide" : "Show"} ${name}`}
            onClick={() => onToggle(line)}
            data-testid={`toggle-${line}`}
            className={cn(
              "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-medium",
              isOn ? "border-border bg-surface-muted text-text" : "border-border text-text-muted border-dashed",
              isLast && "cursor-not-allowed",
            )}
          >
            <span
              aria-hidden
              className="inline-block h-0.5 w-3.5"
              style={{ background: isOn ? style.color : "var(--border)", height: 3, borderRadius: 2 }}
            />
            {name}
          </button>
        );
      })}
    </div>
  );
}

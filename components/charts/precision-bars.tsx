"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "@/server/domain/format";

/** One bar: a month's closed incidents, the valid ones under the invalid ones. */
export interface PrecisionBarDatum {
  month: string;
  valid: number;
  invalid: number;
  /** The tooltip's line: "87.5% (7 of 8)". */
  text: string;
}

const TICK = { fill: "var(--text-muted)", fontSize: 11 };

function PrecisionTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) {
  const bar = payload?.[0]?.payload as PrecisionBarDatum | undefined;
  if (!active || !bar) return null;
  return (
    <div className="rounded-md border border-border bg-surface px-3 py-2 text-xs shadow-md">
      <p className="font-semibold">{bar.month}</p>
      <p className="mt-0.5 tabular-nums">
        <span className="text-good">{bar.valid} valid</span> · <span className="text-bad">{bar.invalid} invalid</span>
      </p>
      <p className="text-text-muted tabular-nums">{bar.text}</p>
    </div>
  );
}

/**
 * Closed incidents per month, valid (real changes) stacked under invalid (noise), fed pre-shaped bars
 * (components/settings/alert-precision-view.ts). Colours are the theme's good and bad, so dark mode follows.
 */
export function PrecisionBars({ bars, label, height = 150 }: { bars: readonly PrecisionBarDatum[]; label: string; height?: number }) {
  return (
    <figure aria-label={label} style={{ height }} className="w-full min-w-0" data-testid="precision-bars">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap="25%">
          <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
          <XAxis dataKey="month" tick={TICK} tickLine={false} axisLine={{ stroke: "var(--border)" }} interval="preserveStartEnd" minTickGap={8} />
          <YAxis
            allowDecimals={false}
            tickFormatter={(value: number) => formatNumber(value, 0)}
            tick={TICK}
            tickLine={false}
            axisLine={false}
            width={32}
          />
          <Tooltip content={<PrecisionTooltip />} cursor={{ fill: "var(--surface-muted)" }} isAnimationActive={false} />
          <Bar dataKey="valid" name="valid" stackId="closed" fill="var(--good)" isAnimationActive={false} />
          <Bar dataKey="invalid" name="invalid" stackId="closed" fill="var(--bad)" radius={[2, 2, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

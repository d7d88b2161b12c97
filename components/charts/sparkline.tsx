"use client";

import { Line, LineChart, ResponsiveContainer, YAxis } from "recharts";

export interface SparklinePoint {
  x: number;
  y: number | null;
}

/**
 * A tiny trend line (e.g. p95 over the last 30 runs). Fed pre-shaped points, oldest first; draws
 * nothing but the line, with a text alternative for screen readers.
 */
export function Sparkline({
  points,
  label,
  width = 120,
  height = 28,
}: {
  points: SparklinePoint[];
  label: string;
  width?: number;
  height?: number;
}) {
  const drawn = points.filter((point) => point.y !== null);
  if (drawn.length < 2) {
    return (
      <span className="text-xs text-text-muted" style={{ width }}>
        {drawn.length === 0 ? "no data" : "1 run"}
      </span>
    );
  }
  return (
    <div role="img" aria-label={label} style={{ width, height }} data-testid="sparkline">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 2, right: 2, bottom: 2, left: 2 }}>
          <YAxis hide domain={["dataMin", "dataMax"]} />
          <Line
            type="monotone"
            dataKey="y"
            stroke="var(--chart-1)"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

import { AGGREGATE_DISPLAY_NAME, AGGREGATE_URL_NAME } from "@/server/domain/run";

/** Jumps to another endpoint's trends (or the aggregate's), keeping the view. */
export function EndpointSwitcher({
  current,
  endpoints,
  onChange,
}: {
  current: string;
  endpoints: readonly string[];
  onChange: (name: string) => void;
}) {
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs">
      <label htmlFor="trend-endpoint" className="text-text-muted">
        Endpoint
      </label>
      <select
        id="trend-endpoint"
        value={current}
        onChange={(event) => onChange(event.target.value)}
        className="border-border bg-surface text-text max-w-56 min-w-0 truncate rounded-md border px-2 py-1 text-xs"
      >
        <option value={AGGREGATE_URL_NAME}>{AGGREGATE_DISPLAY_NAME}</option>
        {endpoints.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

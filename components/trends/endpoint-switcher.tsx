import { AGGREGATE_URL_NAME, endpointKey } from "@/server/domain/run";
import { elideMiddle } from "@/server/domain/format";
import type { EndpointIdentity } from "@/server/domain/run";
import { resultKindsOf, wordsOf } from "@/server/domain/result-kind";

/**
 * Jumps to another endpoint's trends (or the aggregate's), keeping the view. The project's endpoints as a select. An endpoint is its name and protocol: a name measured over several
 * protocols (gRPC and HTTP `GetListing`) is listed once per protocol, with the protocol beside it.
 */
export function EndpointSwitcher({
  current,
  endpoints,
  onChange,
}: {
  current: EndpointIdentity | null;
  endpoints: readonly EndpointIdentity[];
  onChange: (endpoint: EndpointIdentity | null) => void;
}) {
  const sharedNames = new Set(endpoints.filter((e, i) => endpoints.findIndex((other) => other.name === e.name) !== i).map((e) => e.name));
  // Option values are list positions: a name may hold any character, a protocol too.
  const currentIndex = current === null ? -1 : endpoints.findIndex((endpoint) => endpointKey(endpoint) === endpointKey(current));
  const kind = resultKindsOf(endpoints);
  const words = wordsOf(kind);
  // Benchmarks have no aggregate trend (their runs' aggregate holds no numbers): offered only to leave it.
  const hasAggregate = kind !== "benchmark" || currentIndex === -1;
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs">
      <label htmlFor="trend-endpoint" className="text-text-muted">
        {words.nounTitle}
      </label>
      <select
        id="trend-endpoint"
        value={currentIndex === -1 ? AGGREGATE_URL_NAME : String(currentIndex)}
        onChange={(event) => onChange(endpoints[Number(event.target.value)] ?? null)}
        className="border-border bg-surface text-text max-w-56 min-w-0 truncate rounded-md border px-2 py-1 text-xs"
      >
        {hasAggregate && <option value={AGGREGATE_URL_NAME}>{words.aggregate}</option>}
        {endpoints.map((endpoint, index) => (
          <option key={endpointKey(endpoint)} value={String(index)}>
            {elideMiddle(sharedNames.has(endpoint.name) ? `${endpoint.name} (${endpoint.protocol ?? "no protocol"})` : endpoint.name)}
          </option>
        ))}
      </select>
    </div>
  );
}

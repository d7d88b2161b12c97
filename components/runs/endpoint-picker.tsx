"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useId } from "react";
import { elideMiddle } from "@/server/domain/format";

/** One endpoint's figures among a run's (a histogram, a timeline), with its name as shown. */
export interface PickableEndpoint {
  endpoint: string;
  displayName: string;
}

/**
 * Which of a run's endpoints a card shows, kept in the URL (`?<param>=GetListing`): the one the URL
 * names, else the first; undefined when there is none. `select` changes it without a navigation.
 */
export function useEndpointInUrl<Item extends PickableEndpoint>(items: readonly Item[], param: string) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const wanted = searchParams.get(param);
  const selected = items.find((item) => item.endpoint === wanted) ?? items[0];
  const select = (endpoint: string) => {
    const params = new URLSearchParams(searchParams.toString());
    params.set(param, endpoint);
    window.history.replaceState(null, "", `${pathname}?${params.toString()}`);
  };
  return { selected, select };
}

/** A card's endpoint menu: a select when there are several, the one name otherwise. */
export function EndpointPicker({
  items,
  selected,
  onSelect,
  testId,
}: {
  items: readonly PickableEndpoint[];
  selected: PickableEndpoint;
  onSelect: (endpoint: string) => void;
  testId: string;
}) {
  const selectId = useId();
  if (items.length <= 1) return <span className="text-sm text-text-muted">{selected.displayName}</span>;
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={selectId} className="text-text-muted">
        Endpoint
      </label>
      <select
        id={selectId}
        value={selected.endpoint}
        onChange={(event) => onSelect(event.target.value)}
        className="max-w-[14rem] rounded-md border border-border bg-surface px-2 py-1 text-sm"
        data-testid={testId}
      >
        {items.map((item) => (
          <option key={item.endpoint} value={item.endpoint}>
            {elideMiddle(item.displayName, 32)}
          </option>
        ))}
      </select>
    </div>
  );
}

import { Badge } from "@/components/ui/badge";
import { INCIDENT_STATE_LABELS, INCIDENT_STATE_MEANINGS, type IncidentState } from "@/server/domain/incidents/state";
import { stateTone } from "./display";

/** An incident's state as a badge; its meaning for the gate in the title. */
export function IncidentStateBadge({ state }: { state: IncidentState }) {
  return (
    <span data-testid="incident-state" data-state={state} className="inline-flex">
      <Badge tone={stateTone(state)} title={INCIDENT_STATE_MEANINGS[state]}>
        {INCIDENT_STATE_LABELS[state]}
      </Badge>
    </span>
  );
}

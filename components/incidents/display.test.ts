import { describe, expect, it } from "vitest";
import { INCIDENT_STATES, INCIDENT_STATE_MEANINGS } from "@/server/domain/incidents/state";
import {
  TRIAGE_ACTIONS,
  describeEvent,
  describeLastChange,
  describeLink,
  describeReturn,
  formatBeforeAfter,
  inboxFilterTabs,
  listIncidentNumbers,
  parseInboxFilter,
  runName,
  stateTone,
  summarizeIncident,
  triageDone,
  triageQuestion,
} from "./display";

const regression = (
  name: string | null,
  metric: string,
  beforeValue: number,
  afterValue: number,
  protocol: string | null = "http",
) => ({
  metric,
  beforeValue,
  afterValue,
  deltaPct: (100 * (afterValue - beforeValue)) / beforeValue,
  endpoint: name === null ? null : { name, protocol },
});

describe("inbox filters", () => {
  it("reads ?state= as one of its filters, anything else as the active ones", () => {
    expect(parseInboxFilter("accepted")).toBe("accepted");
    expect(parseInboxFilter("all")).toBe("all");
    expect(parseInboxFilter(null)).toBe("active");
    expect(parseInboxFilter("acknowledged")).toBe("active");
    expect(parseInboxFilter("closed")).toBe("active");
  });

  it("counts the active tab as open plus investigating and All as every state", () => {
    const tabs = inboxFilterTabs({ open: 2, investigating: 1, fixed: 0, backed_out: 3, accepted: 4, invalid: 1 });
    expect(tabs.map((tab) => [tab.filter, tab.label, tab.count])).toEqual([
      ["active", "Active", 3],
      ["open", "Open", 2],
      ["investigating", "Investigating", 1],
      ["fixed", "Fixed", 0],
      ["backed_out", "Backed out", 3],
      ["accepted", "Accepted", 4],
      ["invalid", "Invalid (noise)", 1],
      ["all", "All", 11],
    ]);
  });
});

describe("triage actions", () => {
  it("offers every state once, each with what it does to the gate", () => {
    expect(TRIAGE_ACTIONS.map((action) => action.state).sort()).toEqual([...INCIDENT_STATES].sort());
    for (const action of TRIAGE_ACTIONS) expect(action.meaning).toBe(INCIDENT_STATE_MEANINGS[action.state]);
    expect(TRIAGE_ACTIONS.find((action) => action.state === "investigating")!.label).toBe("Acknowledge");
  });

  it("names the incidents it asks about", () => {
    expect(listIncidentNumbers([3])).toBe("#3");
    expect(listIncidentNumbers([3, 4])).toBe("#3 and #4");
    expect(listIncidentNumbers([3, 4, 7, 9])).toBe("#3, #4, #7 and #9");
    expect(listIncidentNumbers([1, 2, 3, 4, 5])).toBe("5 incidents");
    const accept = TRIAGE_ACTIONS.find((action) => action.state === "accepted")!;
    expect(triageQuestion(accept, [3, 4])).toBe("Accept #3 and #4 as the new normal?");
    expect(
      triageQuestion(
        TRIAGE_ACTIONS.find((action) => action.state === "invalid")!,
        [12],
      ),
    ).toBe("Mark #12 invalid (noise)?");
    expect(triageDone([3, 4], "backed_out")).toBe("#3 and #4: Backed out.");
  });

  it("colours open red and investigating amber", () => {
    expect(stateTone("open")).toBe("bad");
    expect(stateTone("investigating")).toBe("warn");
    expect(stateTone("fixed")).toBe("good");
  });
});

describe("summarizeIncident", () => {
  it("says what moved: the first endpoints, how many more, and the largest change with its levels", () => {
    const summary = summarizeIncident([
      regression("SearchListings", "p95", 40, 77.4),
      regression("GetListing", "p99", 20, 30),
      regression("SearchListings", "p50", 10, 14),
      regression("PostOrder", "p95", 100, 120),
      regression(null, "p95", 50, 60, null),
    ]);
    expect(summary.changes).toBe(5);
    expect(summary.endpoints).toEqual(["SearchListings", "GetListing"]);
    expect(summary.moreEndpoints).toBe(2);
    expect(summary.largest).toEqual({
      series: "SearchListings",
      metric: "p95",
      values: "40 ms → 77.4 ms",
      delta: "+93.5%",
    });
  });

  it("words a benchmark's metric as time per operation, and an empty incident has no largest change", () => {
    const summary = summarizeIncident([regression("EncodeJSON", "p95", 0.004, 0.005, "benchmark")]);
    expect(summary.largest?.metric).toBe("p95 time/op");
    expect(summary.endpoints).toEqual(["EncodeJSON"]);
    expect(summarizeIncident([])).toEqual({ changes: 0, endpoints: [], moreEndpoints: 0, largest: null });
  });

  it("keeps a custom metric's value a number (its unit is not known here)", () => {
    expect(formatBeforeAfter(regression("GetListing", "metrics.cpu", 12.5, 20))).toBe("12.5 → 20");
  });
});

describe("runs and who", () => {
  it("names a run by its label and round", () => {
    expect(runName({ label: "nightly", round: 3 })).toBe("nightly #3");
    expect(runName({ label: "nightly", round: null })).toBe("nightly");
    expect(runName({ label: null, round: null })).toBe("run");
  });

  it("says who changed the state last, and nothing while nobody has", () => {
    expect(describeLastChange({ stateChangedAt: null, stateChangedBy: null })).toBeNull();
    expect(
      describeLastChange({ stateChangedAt: new Date("2026-11-21T09:30:00Z"), stateChangedBy: "sam (admin session)" }),
    ).toEqual({
      by: "sam (admin session)",
      at: "2026-11-21 09:30",
    });
  });
});

describe("describeReturn", () => {
  it("says plainly whether a fixed or backed-out step's series have come back", () => {
    expect(describeReturn("fixed", { count: 3, of: 4 })).toEqual({
      tone: "warn",
      text: "3 of 4 series back; waiting for the others to return: the gate judges runs against the level before the step.",
    });
    expect(describeReturn("backed_out", { count: 0, of: 2 })?.text).toBe(
      "Waiting for the series to return (0 of 2 back): the gate judges runs against the level before the step.",
    );
    expect(describeReturn("fixed", { count: 4, of: 4 })).toEqual({
      tone: "good",
      text: "All 4 series are back at the level before the step.",
    });
    expect(describeReturn("fixed", { count: 1, of: 1 })?.text).toBe("The series is back at the level before the step.");
  });

  it("mentions returns of other states only once some series came back", () => {
    expect(describeReturn("open", { count: 0, of: 3 })).toBeNull();
    expect(describeReturn("investigating", { count: 1, of: 3 })).toEqual({
      tone: "neutral",
      text: "1 of 3 series back at the level before the step.",
    });
    expect(describeReturn("fixed", { count: 0, of: 0 })).toBeNull();
  });
});

describe("describeEvent", () => {
  it("words an opening, a state change and an edit", () => {
    expect(describeEvent({ fromState: null, toState: "open" })).toBe("Opened");
    expect(describeEvent({ fromState: "investigating", toState: "accepted" })).toBe("Investigating → Accepted");
    expect(describeEvent({ fromState: null, toState: null })).toBe("Edited");
  });
});

describe("describeLink", () => {
  it("labels GitHub pull requests, issues and commits as people write them", () => {
    expect(describeLink("https://github.com/acme/shop/pull/12")).toEqual({
      text: "acme/shop#12",
      kind: "pull request",
      href: "https://github.com/acme/shop/pull/12",
    });
    expect(describeLink("https://github.com/acme/shop/pull/12/files#diff-1").text).toBe("acme/shop#12");
    expect(describeLink("https://www.github.com/acme/shop/issues/7")).toMatchObject({
      text: "acme/shop#7",
      kind: "issue",
    });
    expect(describeLink("https://github.com/acme/shop/commit/9f1c2e7a4b5c6d7e8f90")).toMatchObject({
      text: "acme/shop@9f1c2e7",
      kind: "commit",
    });
  });

  it("labels GitLab merge requests, issues and commits, groups included", () => {
    expect(describeLink("https://gitlab.com/acme/platform/shop/-/merge_requests/34")).toMatchObject({
      text: "acme/platform/shop!34",
      kind: "merge request",
    });
    expect(describeLink("https://gitlab.example.com/acme/shop/-/issues/5")).toMatchObject({
      text: "acme/shop#5",
      kind: "issue",
    });
    expect(describeLink("https://gitlab.com/acme/shop/-/commit/abcdef0123")).toMatchObject({
      text: "acme/shop@abcdef0",
      kind: "commit",
    });
  });

  it("shows any other link as its host and path, shortened, and never links what is not http(s)", () => {
    expect(describeLink("https://jira.example.com/browse/PERF-12/")).toEqual({
      text: "jira.example.com/browse/PERF-12",
      kind: "link",
      href: "https://jira.example.com/browse/PERF-12/",
    });
    expect(describeLink("https://github.com/acme/shop")).toMatchObject({ text: "github.com/acme/shop", kind: "link" });
    const long = describeLink(`https://example.com/${"a".repeat(80)}`);
    expect(long.text).toHaveLength(48);
    expect(long.text.endsWith("…")).toBe(true);
    expect(describeLink("javascript:alert(1)")).toEqual({ text: "javascript:alert(1)", kind: "link", href: null });
  });
});

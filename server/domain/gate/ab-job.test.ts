import { describe, expect, it } from "vitest";
import type { AbJobRun } from "./ab-job";
import { describeAbJob } from "./ab-job";

// Where an A/B job stands after each upload (ab-job.ts): what `benchtrack ab` reads to run another pair or stop.
const runs = (pairs: number, open: "base" | "head" | null = null): AbJobRun[] => [
  ...Array.from({ length: pairs }, (_, index) => [
    { id: `b${index + 1}`, side: "base" as const, pair: index + 1 },
    { id: `h${index + 1}`, side: "head" as const, pair: index + 1 },
  ]).flat(),
  ...(open ? [{ id: `${open[0]}${pairs + 1}`, side: open, pair: pairs + 1 }] : []),
];
const answer = (outcome: "pass" | "fail" | "inconclusive", kind: "undecided" | "no-data" | null = null) => ({ outcome, inconclusive: kind ? { kind, reason: "" } : null });

describe("an A/B job after an upload", () => {
  it("asks for the other side of an open pair", () => {
    const job = runs(1, "head");
    expect(describeAbJob("j", job.at(-1)!, job, answer("pass"))).toMatchObject({ next: "more-pairs", decided: false, pairs: 1, reason: "pair 2 has no base run yet: upload it" });
  });

  it("stops on a pass, and on a fail that names every slowdown it leans to", () => {
    const job = runs(2);
    expect(describeAbJob("j", job.at(-1)!, job, answer("pass"))).toMatchObject({ next: "stop", decided: true });
    expect(describeAbJob("j", job.at(-1)!, job, answer("fail"), 0)).toMatchObject({ next: "stop", decided: true });
  });

  it("runs another pair on a fail while other changes lean towards a slowdown, undecided", () => {
    const job = runs(2);
    expect(describeAbJob("j", job.at(-1)!, job, answer("fail"), 2)).toMatchObject({
      next: "more-pairs",
      decided: false,
      reason: "fail after 2 pairs, with 2 more changes leaning towards a slowdown, undecided: another pair tells",
    });
  });

  it("runs another pair while undecided; stops when more of the same runs cannot decide", () => {
    const job = runs(3);
    expect(describeAbJob("j", job.at(-1)!, job, answer("inconclusive", "undecided"))).toMatchObject({ next: "more-pairs", decided: false });
    expect(describeAbJob("j", job.at(-1)!, job, answer("inconclusive", "no-data"))).toMatchObject({ next: "stop", decided: true });
  });
});

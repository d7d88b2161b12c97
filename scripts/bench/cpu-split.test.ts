import { describe, expect, it } from "vitest";
import { parseBusyMs, parseProcStat } from "./cpu-split";

// Lines read off this machine's /proc (a PostgreSQL 15 postmaster and one of its children).
const POSTMASTER =
  "2257 (postgres) S 1 2257 2257 0 -1 4194304 26528 2817927 0 62 56 275 16294 8018 20 0 1 0 4918 222445568 7444 18446744073709551615 94913180348416 94913185804761 140732496708624 0 0 0 0 24129536 84487 1 0 0 17 0 0 0 0 0 0 94913188284496 94913188502218 94913277059072 140732496715422 140732496715544 140732496715544 140732496715732 0";
const CHILD =
  "2262 (postgres) S 2257 2262 2262 0 -1 4194368 289 0 0 0 12 2 0 0 20 0 1 0 4927 224022528 2405 18446744073709551615 94913180348416 94913185804761 140732496708624 0 0 0 4194304 24123392 536896135 1 0 0 17 1 0 0 0 0 0 94913188284496 94913188502218 94913277059072 140732496715422 140732496715544 140732496715544 140732496715732 0";

describe("parseProcStat", () => {
  it("reads the pid, name, parent, own CPU (utime + stime) and exited children's CPU (cutime + cstime) in ms", () => {
    expect(parseProcStat(POSTMASTER)).toEqual({ pid: 2257, name: "postgres", parentPid: 1, cpuMs: 3310, exitedChildrenCpuMs: 243120 });
    expect(parseProcStat(CHILD)).toEqual({ pid: 2262, name: "postgres", parentPid: 2257, cpuMs: 140, exitedChildrenCpuMs: 0 });
  });

  it("takes a command name with spaces and parentheses whole", () => {
    const line = CHILD.replace("(postgres)", "(next-server (v16))");
    expect(parseProcStat(line)).toMatchObject({ name: "next-server (v16)", parentPid: 2257, cpuMs: 140 });
  });
});

describe("parseBusyMs", () => {
  it("counts user, nice, system, irq, softirq and steal, not idle or iowait", () => {
    expect(parseBusyMs("cpu  657842 17678 233782 297559 3476 0 4712 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n")).toBe((657842 + 17678 + 233782 + 4712) * 10);
    expect(parseBusyMs("cpu  1 0 0 99999 99999 0 0 5 0 0")).toBe(60);
  });

  it("refuses a file that does not start with the machine's cpu line", () => {
    expect(() => parseBusyMs("cpu0 1 2 3")).toThrow(/not cpu/);
  });
});

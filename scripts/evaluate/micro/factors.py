#!/usr/bin/env python3
"""Measured slowdown factors and burst slowdowns, computed from the run files and manifests.

    python3 scripts/evaluate/micro/factors.py [tool ...]   (default: every tool with a manifest.json)

For every benchmark, a run's statistic is the tool's own centre: go: the median of the 5 ns/op lines;
hyperfine: the median of its `times`; pytest-benchmark: `stats.median`; Google Benchmark: the median
of the 5 `iteration` rows' real_time; vitest: `median`; benchmark.js: 1 / hz (ops/sec).
A variant's factor for a benchmark = median over its single runs without burst of that statistic,
divided by the same for base (> 1: slower). A run's suite slowdown = geometric mean over the
benchmarks of (its statistic / base's no-burst median). Prints Markdown.
"""
import gzip
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ["base", "one", "half", "most", "small"]


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read()


GO_LINE = re.compile(r"^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$")


def parse_go(prefix_files):
    out, extra = {}, {}
    for path in prefix_files:
        if not path.endswith(".txt"):
            continue
        for line in read_text(path).splitlines():
            m = GO_LINE.match(line)
            if not m:
                continue
            name, rest = m.group(1), m.group(2)
            fields = rest.split("\t")
            metrics = {}
            for fld in fields:
                parts = fld.split()
                if len(parts) == 2:
                    metrics[parts[1]] = float(parts[0])
            out.setdefault(name, []).append(metrics["ns/op"])
            extra.setdefault(name, []).append((metrics.get("B/op"), metrics.get("allocs/op")))
    return {k: statistics.median(v) for k, v in out.items()}, extra


def parse_hyperfine(files):
    out = {}
    for path in files:
        if not (path.endswith(".json") or path.endswith(".json.gz")):
            continue
        for r in json.loads(read_text(path))["results"]:
            out[r["command"]] = statistics.median(r["times"])
    return out, {}


def parse_pytest(files):
    out = {}
    for path in files:
        if ".json" in path:
            for b in json.loads(read_text(path))["benchmarks"]:
                out[b["name"]] = b["stats"]["median"]
    return out, {}


def parse_gbench(files):
    rows = {}
    for path in files:
        if ".json" in path:
            for b in json.loads(read_text(path))["benchmarks"]:
                if b.get("run_type") == "iteration":
                    rows.setdefault(b["run_name"], []).append(b["real_time"])
    return {k: statistics.median(v) for k, v in rows.items()}, {}


def parse_vitest(files):
    out = {}
    for path in files:
        if ".json" in path:
            for f in json.loads(read_text(path))["files"]:
                for g in f["groups"]:
                    group = g["fullName"].split(" > ", 1)[-1]
                    for b in g["benchmarks"]:
                        out[f"{group} > {b['name']}"] = b["median"]
    return out, {}


BJS_LINE = re.compile(r"^(.+?) x ([\d,\.]+) ops/sec")


def parse_benchmarkjs(files):
    out = {}
    for path in files:
        if path.endswith(".txt") or path.endswith(".txt.gz"):
            for line in read_text(path).splitlines():
                m = BJS_LINE.match(line)
                if m:
                    out[m.group(1)] = 1.0 / float(m.group(2).replace(",", ""))
    return out, {}


PARSERS = {"go": parse_go, "hyperfine": parse_hyperfine, "pytest-benchmark": parse_pytest,
           "google-benchmark": parse_gbench, "vitest": parse_vitest, "benchmarkjs": parse_benchmarkjs}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def report(tool):
    tool_dir = os.path.join(HERE, tool)
    with open(os.path.join(tool_dir, "manifest.json")) as f:
        manifest = json.load(f)
    runs = []
    for r in manifest["runs"]:
        if r["exit_code"] != 0:
            continue
        stats, extra = PARSERS[tool]([os.path.join(tool_dir, f["file"]) for f in r["files"]])
        if stats:
            runs.append((r, stats, extra))
    print(f"### {tool}\n")
    singles = [x for x in runs if x[0]["kind"] == "single"]
    quiet = {v: [s for r, s, e in singles if r["variant"] == v and r["burst"]["type"] == "none"] for v in VARIANTS}
    if not quiet["base"]:
        print("(no base runs yet)\n")
        return
    names = list(quiet["base"][0].keys())
    centre = {v: {n: statistics.median([s[n] for s in quiet[v] if n in s]) for n in names} for v in VARIANTS if quiet[v]}
    print("Factor = variant / base, medians of the single runs without burst "
          f"(runs: {', '.join(f'{v} {len(quiet[v])}' for v in VARIANTS)}).\n")
    print("| benchmark | " + " | ".join(v for v in VARIANTS[1:] if v in centre) + " |")
    print("| --- |" + " --- |" * len([v for v in VARIANTS[1:] if v in centre]))
    for n in names:
        cells = [f"{centre[v][n] / centre['base'][n]:.2f}" for v in VARIANTS[1:] if v in centre]
        print(f"| `{n}` | " + " | ".join(cells) + " |")
    print()
    if tool == "go":
        print("go B/op and allocs/op (single runs without burst; every run's 5 lines agree unless a range is shown):\n")
        print("| benchmark | " + " | ".join(v for v in VARIANTS if v in centre) + " |")
        print("| --- |" + " --- |" * len([v for v in VARIANTS if v in centre]))
        for n in names:
            cells = []
            for v in VARIANTS:
                if v not in centre:
                    continue
                vals = sorted({x for r, s, e in singles if r["variant"] == v and r["burst"]["type"] == "none" for x in e.get(n, [])})
                if len(vals) == 1:
                    cells.append(f"{vals[0][0]:g} B, {vals[0][1]:g} allocs")
                else:
                    bs = [x[0] for x in vals]
                    al = [x[1] for x in vals]
                    cells.append(f"{min(bs):g}–{max(bs):g} B, {min(al):g}–{max(al):g} allocs")
            print(f"| `{n}` | " + " | ".join(cells) + " |")
        print()
    print("Suite slowdown of each run with a burst (geometric mean over benchmarks of run / its variant's "
          "no-burst median), and the spread of the runs without burst for comparison:\n")
    print("| run | burst | suite slowdown | duration s |")
    print("| --- | --- | --- | --- |")
    for r, s, e in runs:
        if r["burst"]["type"] == "none":
            continue
        ref = centre.get(r["variant"])
        if not ref:
            continue
        sd = geomean([s[n] / ref[n] for n in names if n in s])
        b = r["burst"]
        desc = b["type"]
        if b["type"] == "partial":
            desc += f" (starts +{b.get('start_offset_s')} s, {b.get('length_s')} s)"
        print(f"| {r['id']} | {desc} | {sd:.2f}x | {r['duration_s']} |")
    for v in VARIANTS:
        if v not in centre:
            continue
        sds = [geomean([s[n] / centre[v][n] for n in names if n in s]) for s in quiet[v]]
        print(f"| (single {v}, no burst: {len(sds)} runs) | none | {min(sds):.2f}x–{max(sds):.2f}x | |")
    ab_quiet = [geomean([s[n] / centre[r['variant']][n] for n in names if n in s])
                for r, s, e in runs if r["kind"] == "ab" and r["burst"]["type"] == "none" and r["variant"] in centre]
    if ab_quiet:
        ab_quiet.sort()
        print(f"| (A/B runs, no burst: {len(ab_quiet)}) | none | {ab_quiet[0]:.2f}x–{ab_quiet[-1]:.2f}x, "
              f"median {statistics.median(ab_quiet):.2f}x | |")
    print()


def main():
    tools = sys.argv[1:] or [t for t in PARSERS if os.path.exists(os.path.join(HERE, t, "manifest.json"))]
    for t in tools:
        report(t)


if __name__ == "__main__":
    main()

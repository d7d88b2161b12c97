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
import io
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The runs to read: EVAL_DATA=<folder> (scripts/evaluate/micro-quiet), else this folder.
DATA = os.path.abspath(os.environ.get("EVAL_DATA", HERE))
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
    return {k: (statistics.median(v), min(v)) for k, v in out.items()}, extra


def parse_hyperfine(files):
    out = {}
    for path in files:
        if not (path.endswith(".json") or path.endswith(".json.gz")):
            continue
        for r in json.loads(read_text(path))["results"]:
            out[r["command"]] = (statistics.median(r["times"]), min(r["times"]))
    return out, {}


def parse_pytest(files):
    out = {}
    for path in files:
        if ".json" in path:
            for b in json.loads(read_text(path))["benchmarks"]:
                out[b["name"]] = (b["stats"]["median"], b["stats"]["min"])
    return out, {}


def parse_gbench(files):
    rows = {}
    for path in files:
        if ".json" in path:
            for b in json.loads(read_text(path))["benchmarks"]:
                if b.get("run_type") == "iteration":
                    rows.setdefault(b["run_name"], []).append(b["real_time"])
    return {k: (statistics.median(v), min(v)) for k, v in rows.items()}, {}


def parse_vitest(files):
    out = {}
    for path in files:
        if ".json" in path:
            for f in json.loads(read_text(path))["files"]:
                for g in f["groups"]:
                    group = g["fullName"].split(" > ", 1)[-1]
                    for b in g["benchmarks"]:
                        out[f"{group} > {b['name']}"] = (b["median"], b["min"])
    return out, {}


BJS_LINE = re.compile(r"^(.+?) x ([\d,\.]+) ops/sec")


def parse_benchmarkjs(files):
    out = {}
    for path in files:
        if path.endswith(".txt") or path.endswith(".txt.gz"):
            for line in read_text(path).splitlines():
                m = BJS_LINE.match(line)
                if m:
                    t = 1.0 / float(m.group(2).replace(",", ""))
                    out[m.group(1)] = (t, t)
    return out, {}


PARSERS = {"go": parse_go, "hyperfine": parse_hyperfine, "pytest-benchmark": parse_pytest,
           "google-benchmark": parse_gbench, "vitest": parse_vitest, "benchmarkjs": parse_benchmarkjs}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def fmt_range(xs):
    xs = sorted(xs)
    return f"{xs[0]:.2f}" if len(xs) == 1 else f"{statistics.median(xs):.2f} ({xs[0]:.2f}–{xs[-1]:.2f})"


def report(tool):
    tool_dir = os.path.join(DATA, tool)
    with open(os.path.join(tool_dir, "manifest.json")) as f:
        manifest = json.load(f)
    runs = []
    for r in manifest["runs"]:
        if r["exit_code"] != 0:
            continue
        stats, extra = PARSERS[tool]([os.path.join(tool_dir, f["file"]) for f in r["files"]])
        if stats:
            runs.append((r, stats, extra))
    failed = [r["id"] for r in manifest["runs"] if r["exit_code"] != 0]
    print(f"### {tool}\n")
    print(f"{len(manifest['runs'])} runs, {len(manifest['files'])} files, {len(failed)} failed"
          + (f" ({', '.join(failed)})" if failed else "") + ".\n")
    singles = [x for x in runs if x[0]["kind"] == "single"]
    quiet = {v: [s for r, s, e in singles if r["variant"] == v and r["burst"]["type"] == "none"] for v in VARIANTS}
    if not quiet["base"]:
        print("(no base runs yet)\n")
        return
    names = list(quiet["base"][0].keys())
    have = [v for v in VARIANTS if quiet[v]]
    centre = {v: {n: statistics.median([s[n][0] for s in quiet[v] if n in s]) for n in names} for v in have}
    low = {v: {n: min(s[n][1] for s in quiet[v] if n in s) for n in names} for v in have}
    ab = {}
    for r, s, e in runs:
        if r["kind"] == "ab" and r["burst"]["type"] == "none":
            ab.setdefault(r["job"], {}).setdefault(r["pair"], {})[r["side"]] = s
    ab_ratio = {}  # head variant -> name -> [per-job median over pairs of head/base]
    for job, pairs in ab.items():
        head = "base" if job.startswith("base-vs-base") else job.split("-")[2]
        for n in names:
            rs = [p["head"][n][0] / p["base"][n][0] for p in pairs.values() if "head" in p and "base" in p]
            if rs:
                ab_ratio.setdefault(head, {}).setdefault(n, []).append(statistics.median(rs))
    SUMMARY[tool] = (names, have, centre, low, ab_ratio)
    print("Factor = variant / base (> 1: slower). **med**: medians of the single runs without burst "
          "(each run's statistic is the tool's centre, see the top of factors.py); **min**: the fastest sample "
          "of all those runs (the least disturbed by other work); **A/B**: per job, the median over its "
          "pairs of head / base (pairs with a burst left out), then the median (and range) over the jobs. "
          f"Single runs without burst: {', '.join(f'{v} {len(quiet[v])}' for v in VARIANTS)}.\n")
    cols = []
    for v in have[1:]:
        cols += [f"{v} med", f"{v} min"] + ([f"{v} A/B"] if v in ab_ratio else [])
    cols += ["base-vs-base A/B"] if "base" in ab_ratio else []
    print("| benchmark | " + " | ".join(cols) + " |")
    print("| --- |" + " ---: |" * len(cols))
    for n in names:
        cells = []
        for v in have[1:]:
            cells += [f"{centre[v][n] / centre['base'][n]:.2f}", f"{low[v][n] / low['base'][n]:.2f}"]
            if v in ab_ratio:
                cells.append(fmt_range(ab_ratio[v][n]))
        if "base" in ab_ratio:
            cells.append(fmt_range(ab_ratio["base"][n]))
        print(f"| `{n}` | " + " | ".join(cells) + " |")
    print()
    if tool == "go":
        print("B/op and allocs/op (single runs without burst; a range where the runs' lines differ):\n")
        print("| benchmark | " + " | ".join(have) + " |")
        print("| --- |" + " --- |" * len(have))
        for n in names:
            cells = []
            for v in have:
                vals = sorted({x for r, s, e in singles if r["variant"] == v and r["burst"]["type"] == "none" for x in e.get(n, [])})
                bs = [x[0] for x in vals]
                al = [x[1] for x in vals]
                b_txt = f"{min(bs):g}" if min(bs) == max(bs) else f"{min(bs):g}–{max(bs):g}"
                a_txt = f"{min(al):g}" if min(al) == max(al) else f"{min(al):g}–{max(al):g}"
                cells.append(f"{b_txt} B, {a_txt} allocs")
            print(f"| `{n}` | " + " | ".join(cells) + " |")
        print()
    # Suite level: each run's slowdown against its variant's no-burst median, then against its neighbours in time.
    level = []
    for r, s, e in runs:
        if r["variant"] in centre:
            level.append((r, geomean([s[n][0] / centre[r["variant"]][n] for n in names if n in s])))
    level.sort(key=lambda x: x[0]["seq"])
    quiet_level = [(r["seq"], sd) for r, sd in level if r["burst"]["type"] == "none"]
    print("Suite level of a run = geometric mean over the benchmarks of (its statistic / its variant's no-burst "
          "median). **vs neighbours** divides a burst run's level by the median level of the 6 runs without burst "
          "nearest to it in the running order, which takes out most of the slow drift of the machine's load.\n")
    print("| run (seq) | burst | suite level | vs neighbours | load 1 min before → after | duration s |")
    print("| --- | --- | ---: | ---: | --- | ---: |")
    whole, partial = [], []
    for r, sd in level:
        b = r["burst"]
        if b["type"] == "none":
            continue
        near = sorted(quiet_level, key=lambda q: abs(q[0] - r["seq"]))[:6]
        rel = sd / statistics.median([q[1] for q in near])
        (whole if b["type"] == "whole" else partial).append(rel)
        desc = b["type"]
        if b["type"] == "partial":
            desc += f", +{b.get('start_offset_s')} s for {b.get('length_s')} s"
        print(f"| {r['id']} ({r['seq']}) | {desc} | {sd:.2f}x | {rel:.2f}x | {r['loadavg_1m_before']} → "
              f"{r['loadavg_1m_after']} | {r['duration_s']} |")
    print()
    q = sorted(sd for _, sd in quiet_level)
    loads0 = [r["loadavg_1m_before"] for r in manifest["runs"]]
    BURSTS[tool] = (whole, partial, q, loads0, manifest["runs"][0]["start_utc"], manifest["runs"][-1]["end_utc"],
                    statistics.median(r["duration_s"] for r in manifest["runs"] if r["burst"]["type"] == "none"))
    print(f"Runs without burst ({len(q)}): suite level {q[0]:.2f}x–{q[-1]:.2f}x (10th–90th percentile "
          f"{q[len(q) // 10]:.2f}x–{q[(9 * len(q)) // 10]:.2f}x). Whole-run bursts vs neighbours: "
          + (f"mean {statistics.mean(whole):.2f}x ({min(whole):.2f}x–{max(whole):.2f}x)" if whole else "none")
          + "; partial bursts: "
          + (f"mean {statistics.mean(partial):.2f}x ({min(partial):.2f}x–{max(partial):.2f}x)" if partial else "none")
          + ".\n")
    loads = [r["loadavg_1m_before"] for r in manifest["runs"]]
    print(f"1-minute load average before the runs: {min(loads)}–{max(loads)}, median {statistics.median(loads):.2f}; "
          f"from {manifest['runs'][0]['start_utc']} to {manifest['runs'][-1]['end_utc']}.\n")


SUMMARY = {}
BURSTS = {}


def bursts_table(tools):
    print("### Summary: bursts and load\n")
    print("Burst effect = a burst run's suite level / the median level of the 6 nearest runs without burst. "
          "Drift = the 10th–90th percentile of the suite level of the runs without burst.\n")
    print("| tool | whole-run bursts (6) | partial bursts (5) | drift without burst | load 1 min (median) | "
          "run length without burst (median) | ran (UTC) |")
    print("| --- | --- | --- | --- | --- | ---: | --- |")
    for tool in tools:
        if tool not in BURSTS:
            continue
        whole, partial, q, loads, t0, t1, dur = BURSTS[tool]
        fmt = lambda xs: f"mean {statistics.mean(xs):.2f}x ({min(xs):.2f}x–{max(xs):.2f}x)" if xs else ""
        print(f"| {tool} | {fmt(whole)} | {fmt(partial)} | {q[len(q) // 10]:.2f}x–{q[(9 * len(q)) // 10]:.2f}x | "
              f"{min(loads)}–{max(loads)} ({statistics.median(loads):.2f}) | {dur:.1f} s | {t0[11:19]}–{t1[11:19]} |")
    print()


def summary(tools):
    """Changed benchmarks (variants.json) with their factors; the unchanged ones as a range (noise)."""
    with open(os.path.join(HERE, "variants.json")) as f:
        changed = json.load(f)
    print("### Summary: the changed benchmarks\n")
    print("Factors as in the per-tool tables below (med / min / A/B median over jobs). The last row of each "
          "variant gives the range of the same factors over the benchmarks it did **not** change.\n")
    print("| tool | variant | benchmark | med | min | A/B |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for tool in tools:
        if tool not in SUMMARY:
            continue
        names, have, centre, low, ab_ratio = SUMMARY[tool]
        for v in ["one", "half", "most", "small"]:
            if v not in have:
                continue
            ch = changed[tool][v]
            for n in ch:
                if n not in names:
                    print(f"| {tool} | {v} | `{n}` | (not in the runs) | | |")
                    continue
                ab_txt = f"{statistics.median(ab_ratio[v][n]):.2f}" if v in ab_ratio else ""
                print(f"| {tool} | {v} | `{n}` | {centre[v][n] / centre['base'][n]:.2f} | "
                      f"{low[v][n] / low['base'][n]:.2f} | {ab_txt} |")
            rest = [n for n in names if n not in ch]
            if rest:
                meds = [centre[v][n] / centre["base"][n] for n in rest]
                lows = [low[v][n] / low["base"][n] for n in rest]
                abs_ = [statistics.median(ab_ratio[v][n]) for n in rest] if v in ab_ratio else []
                ab_txt = f"{min(abs_):.2f}–{max(abs_):.2f}" if abs_ else ""
                print(f"| {tool} | {v} | ({len(rest)} unchanged) | {min(meds):.2f}–{max(meds):.2f} | "
                      f"{min(lows):.2f}–{max(lows):.2f} | {ab_txt} |")
        if "base" in ab_ratio:
            abs_ = [statistics.median(ab_ratio["base"][n]) for n in names]
            print(f"| {tool} | base-vs-base | (all {len(names)}) | | | {min(abs_):.2f}–{max(abs_):.2f} |")
    print()


def counts(tools):
    """Runs and files per tool, kind and variant (a run's files: see the layout in README.md)."""
    print("### Runs and files\n")
    print("| tool | kind | " + " | ".join(VARIANTS) + " | runs | files | bytes |")
    print("| --- | --- |" + " ---: |" * (len(VARIANTS) + 3))
    for tool in tools:
        with open(os.path.join(DATA, tool, "manifest.json")) as f:
            manifest = json.load(f)
        for kind in ["single", "ab"]:
            rs = [r for r in manifest["runs"] if r["kind"] == kind]
            cells = []
            for v in VARIANTS:
                vr = [r for r in rs if r["variant"] == v]
                cells.append(f"{len(vr)} runs, {sum(len(r['files']) for r in vr)} files" if vr else "")
            nbytes = sum(f["bytes"] for r in rs for f in r["files"])
            print(f"| {tool} | {kind} | " + " | ".join(cells) + f" | {len(rs)} | {sum(len(r['files']) for r in rs)} | {nbytes:,} |")
    print()


def main():
    args = sys.argv[1:]
    if args == ["--readme"]:
        return update_readme()
    tools = args or [t for t in PARSERS if os.path.exists(os.path.join(DATA, t, "manifest.json"))]
    counts(tools)
    out = sys.stdout
    buf = io.StringIO()
    sys.stdout = buf
    for t in tools:
        report(t)
    sys.stdout = out
    summary(tools)
    bursts_table(tools)
    print(buf.getvalue(), end="")


def update_readme():
    """Writes factors.md and copies its two summary tables into README.md between the factors markers."""
    tools = [t for t in PARSERS if os.path.exists(os.path.join(DATA, t, "manifest.json"))]
    out = sys.stdout
    buf = io.StringIO()
    sys.stdout = buf
    counts(tools)
    body = io.StringIO()
    sys.stdout = body
    for t in tools:
        report(t)
    sys.stdout = buf
    summary(tools)
    bursts_table(tools)
    sys.stdout = out
    text = buf.getvalue() + body.getvalue()
    with open(os.path.join(DATA, "factors.md"), "w") as f:
        f.write("# Measured factors (written by `python3 factors.py --readme`; do not edit)\n\n" + text)
    readme_path = os.path.join(DATA, "README.md")
    with open(readme_path) as f:
        readme = f.read()
    start, end = "<!-- factors:begin -->\n", "<!-- factors:end -->"
    i, j = readme.index(start) + len(start), readme.index(end)
    block = buf.getvalue().replace("### ", "#### ")
    with open(readme_path, "w") as f:
        f.write(readme[:i] + block + readme[j:])


if __name__ == "__main__":
    main()

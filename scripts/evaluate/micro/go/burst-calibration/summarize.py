#!/usr/bin/env python3
"""Suite level of each calibration run: geometric mean over the benchmarks of (median ns/op of the run /
median ns/op of the trial's runs without burst, pooled). Prints Markdown."""
import glob
import math
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r"^(Benchmark\S+)\s+\d+\s+([\d.]+) ns/op")


def medians(path):
    vals = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            vals.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: statistics.median(v) for k, v in vals.items()}


for trial in ["cal-", "cal2-"]:
    files = sorted(glob.glob(os.path.join(HERE, trial + "*.txt")), key=os.path.getmtime)
    runs = {os.path.basename(f)[len(trial):-4]: medians(f) for f in files}
    quiet = [r for k, r in runs.items() if k.startswith("none")]
    ref = {n: statistics.median([r[n] for r in quiet]) for n in quiet[0]}
    print(f"trial `{trial}*` (in running order)\n\n| run | suite level |\n| --- | ---: |")
    for k, r in runs.items():
        level = math.exp(statistics.mean(math.log(r[n] / ref[n]) for n in ref))
        print(f"| {k} | {level:.2f}x |")
    print()

#!/usr/bin/env python3
"""Checks every tool's runs (each tool with a manifest) against its manifest: 136 runs, exit code 0, every listed file present with the
listed size and SHA-256, and no file under runs/ that the manifest does not list.

    python3 scripts/evaluate/micro/check-files.py   (EVAL_DATA=scripts/evaluate/micro-quiet: that folder's)
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The runs to read: EVAL_DATA=<folder> (scripts/evaluate/micro-quiet), else this folder.
DATA = os.path.abspath(os.environ.get("EVAL_DATA", HERE))
TOOLS = [t for t in ["go", "hyperfine", "pytest-benchmark", "google-benchmark", "vitest", "benchmarkjs"] if os.path.exists(os.path.join(DATA, t, "manifest.json"))]
problems = 0
seqs = []
for tool in TOOLS:
    d = os.path.join(DATA, tool)
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    listed = set()
    for r in m["runs"]:
        seqs.append(r["seq"])
        if r["exit_code"] != 0:
            print(f"{tool} {r['id']}: exit code {r['exit_code']}")
            problems += 1
        for fi in r["files"]:
            path = os.path.join(d, fi["file"])
            listed.add(os.path.normpath(path))
            with open(path, "rb") as fh:
                data = fh.read()
            if len(data) != fi["bytes"] or hashlib.sha256(data).hexdigest() != fi["sha256"]:
                print(f"{tool} {fi['file']}: size or SHA-256 differs from the manifest")
                problems += 1
    on_disk = {os.path.normpath(os.path.join(root, n)) for root, _, names in os.walk(os.path.join(d, "runs")) for n in names}
    for extra in sorted(on_disk - listed):
        print(f"{tool}: {os.path.relpath(extra, DATA)} is not in the manifest")
        problems += 1
    print(f"{tool}: {len(m['runs'])} runs, {len(m['files'])} files, {sum(fi['bytes'] for fi in m['files']):,} bytes")
    if len(m["runs"]) != 136:
        problems += 1
if sorted(seqs) != list(range(1, len(seqs) + 1)):
    print("seq numbers are not 1..N without gaps")
    problems += 1
print("all good" if problems == 0 else f"{problems} problem(s)")
sys.exit(1 if problems else 0)

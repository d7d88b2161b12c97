#!/usr/bin/env python3
"""Runs one tool's measurement campaign for the CI-gate evaluation fixtures.

The plan (seeded, so it is the same every time):
  * single runs: base 16 (12 without burst, 2 under a whole-run burst, 2 hit by a partial burst),
    one/half/most/small 6 each (5 without burst, 1 whole-run burst), in 6 rounds; each round holds one
    run of every variant (base two or three times) in a shuffled order;
  * A/B jobs: 5 base-vs-base, 5 base-vs-small, 2 base-vs-one, 4 ABBA pairs each
    (pair 1 base then head, pair 2 head then base, pair 3 base then head, pair 4 head then base);
    in 2 base-vs-base jobs and 1 base-vs-small job a partial burst hits one run;
    after every round of single runs come 2 A/B jobs (the 12 jobs in a shuffled order).

Every run is `sh RUN_SH once CODE_DIR OUT_PREFIX`: the tool writes its files straight to
OUT_PREFIX.<ext>; this script only times the run, starts and stops the bursts, gzips an output file
over 200 KB (gzip -9n; --gzip-over sets a lower limit) and writes manifest.json beside RUN_SH after every run (so a stopped campaign
keeps what it made, and starting it again skips the runs already done).
"""
import argparse
import datetime as dt
import glob
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

VARIANTS = ["base", "one", "half", "most", "small"]
GZIP_OVER_BYTES = 200 * 1024


def utc_now():
    return dt.datetime.now(dt.timezone.utc)


def iso(t):
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def read_loadavg():
    with open("/proc/loadavg") as f:
        text = f.read().strip()
    return float(text.split()[0]), text


def make_plan(seed):
    rng = random.Random(seed)
    runs = []
    # Single runs: 6 rounds; base appears 3,3,3,3,2,2 times (16 in all).
    base_counts = [3, 3, 3, 3, 2, 2]
    rng.shuffle(base_counts)
    rounds = []
    for r in range(6):
        items = ["base"] * base_counts[r] + ["one", "half", "most", "small"]
        rng.shuffle(items)
        rounds.append(items)
    # Which runs get bursts.
    base_positions = [(r, i) for r, items in enumerate(rounds) for i, v in enumerate(items) if v == "base"]
    chosen = rng.sample(base_positions, 4)
    bursts = {chosen[0]: "whole", chosen[1]: "whole", chosen[2]: "partial", chosen[3]: "partial"}
    for v in ["one", "half", "most", "small"]:
        r = rng.randrange(6)
        bursts[(r, rounds[r].index(v))] = "whole"
    counters = {v: 0 for v in VARIANTS}
    single_rounds = []
    for r, items in enumerate(rounds):
        rr = []
        for i, v in enumerate(items):
            counters[v] += 1
            rr.append({
                "id": f"single/{v}/run-{counters[v]:02d}",
                "variant": v, "kind": "single", "round": r + 1,
                "burst": bursts.get((r, i), "none"),
                "out": f"single/{v}/run-{counters[v]:02d}",
            })
        single_rounds.append(rr)
    # A/B jobs.
    jobs = [(f"base-vs-base-{k}", "base") for k in range(1, 6)] + \
           [(f"base-vs-small-{k}", "small") for k in range(1, 6)] + \
           [(f"base-vs-one-{k}", "one") for k in range(1, 3)]
    partial_jobs = set(rng.sample([j for j, _ in jobs if j.startswith("base-vs-base")], 2)) | \
        set(rng.sample([j for j, _ in jobs if j.startswith("base-vs-small")], 1))
    rng.shuffle(jobs)
    ab_blocks = []
    for job_id, head in jobs:
        order = []
        for pair in range(1, 5):
            sides = ["base", "head"] if pair % 2 == 1 else ["head", "base"]
            for side in sides:
                order.append((pair, side))
        hit = rng.choice(order) if job_id in partial_jobs else None
        block = []
        for pair, side in order:
            block.append({
                "id": f"ab/{job_id}/pair-{pair}-{side}",
                "variant": "base" if side == "base" else head,
                "kind": "ab", "job": job_id, "pair": pair, "side": side,
                "head_variant": head,
                "burst": "partial" if (pair, side) == hit else "none",
                "out": f"ab/{job_id}/pair-{pair}-{side}",
            })
        ab_blocks.append(block)
    for r in range(6):
        runs.extend(single_rounds[r])
        for block in ab_blocks[2 * r: 2 * r + 2]:
            runs.extend(block)
    # Partial-burst timing is drawn here too, so the plan is fixed by the seed.
    for run in runs:
        if run["burst"] == "partial":
            run["partial_fraction"] = round(rng.uniform(0.1, 0.7), 3)
            run["partial_length_s"] = rng.choice([3, 4, 5])
    return runs


class Burst:
    """A stress-ng process group that this script started (and stops, by its own process group id)."""

    def __init__(self, argv, log):
        self.argv = argv
        self.log = log
        self.proc = None
        self.started_at = None

    def start(self):
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(self.argv, stdout=self.log, stderr=self.log, start_new_session=True)

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--run-sh", required=True)
    ap.add_argument("--code-dir", required=True, help="pattern with {variant}")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--est-seconds", type=float, required=True,
                    help="guess of one run's length, used for a partial burst's start until runs are timed")
    ap.add_argument("--burst-args", default="--cpu 2",
                    help="stress-ng worker options of every burst")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many new runs (0: all)")
    ap.add_argument("--out-dir", default=None, help="the tool's folder for runs/, manifest.json and campaign.log (default: RUN_SH's folder)")
    ap.add_argument("--gzip-over", type=int, default=GZIP_OVER_BYTES,
                    help="gzip -9n an output file larger than this many bytes (default 200 KB)")
    args = ap.parse_args()

    tool_dir = os.path.abspath(args.out_dir) if args.out_dir else os.path.dirname(os.path.abspath(args.run_sh))
    micro_dir = os.path.dirname(tool_dir)
    runs_dir = os.path.join(tool_dir, "runs")
    manifest_path = os.path.join(tool_dir, "manifest.json")
    log = open(os.path.join(tool_dir, "campaign.log"), "a", buffering=1)

    plan = make_plan(args.seed)
    done = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            for r in json.load(f)["runs"]:
                done[r["id"]] = r
    max_seq = 0
    for mp in glob.glob(os.path.join(micro_dir, "*", "manifest.json")):
        with open(mp) as f:
            for r in json.load(f)["runs"]:
                max_seq = max(max_seq, r["seq"])
    seq = max_seq
    burst_base = ["stress-ng"] + args.burst_args.split()

    def write_manifest():
        runs = [done[r["id"]] for r in plan if r["id"] in done]
        runs.sort(key=lambda r: r["seq"])
        files = []
        for r in runs:
            for f in r["files"]:
                entry = {k: v for k, v in r.items() if k != "files"}
                entry.update(f)
                files.append(entry)
        doc = {
            "tool": args.tool,
            "made_by": f"scripts/evaluate/micro/{args.tool}/run.sh (via scripts/evaluate/micro/campaign.py --seed {args.seed})",
            "burst_workers": " ".join(burst_base),
            "runs": runs,
            "files": files,
        }
        tmp = manifest_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, manifest_path)

    durations = [r["duration_s"] for r in done.values() if r["burst"]["type"] == "none" and r["exit_code"] == 0]
    new_runs = 0
    for run in plan:
        if run["id"] in done:
            continue
        if args.limit and new_runs >= args.limit:
            break
        new_runs += 1
        seq += 1
        prefix = os.path.join(runs_dir, run["out"])
        os.makedirs(os.path.dirname(prefix), exist_ok=True)
        for old in glob.glob(prefix + ".*"):
            os.remove(old)
        code_dir = args.code_dir.format(variant=run["variant"])
        burst_info = {"type": run["burst"]}
        burst = None
        timer = None
        if run["burst"] == "whole":
            argv = burst_base + ["--timeout", "600s"]
            burst = Burst(argv, log)
            burst_info.update({"command": " ".join(argv), "note": "started 1.0 s before the run, stopped (SIGTERM to its process group) as soon as the run ended"})
        load_before, load_before_text = read_loadavg()
        log.write(f"--- seq {seq} {run['id']} burst={run['burst']} load={load_before_text}\n")
        if burst:
            burst.start()
            time.sleep(1.0)
        t0 = time.monotonic()
        start = utc_now()
        if run["burst"] == "partial":
            est = sorted(durations)[len(durations) // 2] if durations else args.est_seconds
            length = run["partial_length_s"]
            offset = round(max(0.5, run["partial_fraction"] * max(est - length, 1.0)), 1)
            argv = burst_base + ["--timeout", f"{length}s"]
            burst = Burst(argv, log)
            burst_info.update({"command": " ".join(argv), "planned_start_offset_s": offset, "length_s": length})
            timer = threading.Timer(offset, burst.start)
            timer.start()
        proc = subprocess.run(["sh", args.run_sh, "once", code_dir, prefix], stdout=log, stderr=log)
        end = utc_now()
        t1 = time.monotonic()
        if timer:
            timer.cancel()
        if burst:
            if run["burst"] == "whole":
                burst_info["start_offset_s"] = round(burst.started_at - t0, 3)
                burst_info["length_s"] = round(t1 - burst.started_at, 3)
            elif burst.started_at is not None:
                burst_info["start_offset_s"] = round(burst.started_at - t0, 3)
                burst_info["overlap_s"] = round(max(0.0, min(t1, burst.started_at + burst_info["length_s"]) - burst.started_at), 3)
            else:
                burst_info["start_offset_s"] = None
                burst_info["note"] = "the run ended before the burst was due: no burst happened"
            burst.stop()
        load_after, load_after_text = read_loadavg()
        files = []
        for path in sorted(glob.glob(prefix + ".*")):
            gz = False
            if os.path.getsize(path) > args.gzip_over:
                subprocess.run(["gzip", "-9n", path], check=True)
                path += ".gz"
                gz = True
            files.append({
                "file": os.path.relpath(path, tool_dir),
                "bytes": os.path.getsize(path),
                "sha256": sha256_file(path),
                "gzipped": gz,
            })
        rec = {
            "id": run["id"], "seq": seq, "tool": args.tool, "variant": run["variant"], "kind": run["kind"],
        }
        if run["kind"] == "ab":
            rec.update({"job": run["job"], "pair": run["pair"], "side": run["side"], "head_variant": run["head_variant"]})
        else:
            rec["round"] = run["round"]
        rec.update({
            "start_utc": iso(start), "end_utc": iso(end), "duration_s": round(t1 - t0, 3),
            "burst": burst_info,
            "loadavg_1m_before": load_before, "loadavg_1m_after": load_after,
            "proc_loadavg_before": load_before_text, "proc_loadavg_after": load_after_text,
            "exit_code": proc.returncode, "files": files,
        })
        done[run["id"]] = rec
        if run["burst"] == "none" and proc.returncode == 0:
            durations.append(rec["duration_s"])
        write_manifest()
        print(f"{seq} {run['id']} burst={run['burst']} rc={proc.returncode} {rec['duration_s']}s load {load_before}->{load_after}", flush=True)
    write_manifest()
    print("campaign done" if all(r["id"] in done for r in plan) else "campaign stopped early", flush=True)


if __name__ == "__main__":
    sys.exit(main())

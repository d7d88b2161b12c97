#!/bin/sh
# Runs the named tools' campaigns one after another (never two benchmarks at once), e.g.
#   sh scripts/evaluate/micro/run-all.sh go hyperfine pytest-benchmark google-benchmark vitest benchmarkjs
# Each campaign skips the runs its manifest.json already holds, so a stopped chain can be started again.
# EVAL_DATA=<folder> writes the runs there instead of beside the scripts, SCRATCH_ROOT=<folder> lays out the
# variants there (default /tmp/eval-micro): scripts/evaluate/micro-quiet was made so.
HERE=$(cd "$(dirname "$0")" && pwd)
for t in "$@"; do
  echo "=== $t $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  sh "$HERE/$t/run.sh" || echo "=== $t failed (exit $?)"
done
echo "=== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"

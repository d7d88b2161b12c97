#!/bin/sh
# Google Benchmark runs for the CI-gate evaluation fixtures (Debian libbenchmark-dev 1.7.1, g++ 12.2.0).
#   sh run.sh                     build every variant's micro_bench in $SCRATCH and run the whole campaign
#   sh run.sh prepare             only lay out the variants in $SCRATCH
#   sh run.sh once DIR PREFIX     one run of the suite in DIR: PREFIX.json (--benchmark_out) and, from the
#                                 same run, PREFIX.txt (console output, stderr included)
# --benchmark_min_time=0.05 (the shared fixture used 0.2, the default is 0.5) keeps one run near 5 s.
# The JSON (about 50 KB) is stored gzipped (gzip -9n) to keep the folder small.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/google-benchmark
if [ "$1" = once ]; then
  cd "$2"
  ./micro_bench --benchmark_min_time=0.05 --benchmark_repetitions=5 \
    --benchmark_out="$3.json" --benchmark_out_format=json \
    --benchmark_format=console --benchmark_color=false \
    > "$3.txt" 2>&1
  exit 0
fi
for v in base one half most small; do
  d="$SCRATCH/$v/google-benchmark"
  rm -rf "$d"
  mkdir -p "$d"
  cp "$HERE/source/"* "$d/"
  if [ "$v" != base ]; then cp -R "$HERE/variants/$v/." "$d/"; fi
  (cd "$d" && g++ -O2 -std=c++17 -o micro_bench micro_bench.cpp -lbenchmark -lpthread)
done
if [ "$1" = prepare ]; then exit 0; fi
exec /usr/bin/python3 "$HERE/../campaign.py" --tool google-benchmark --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/google-benchmark" \
  --code-dir "$SCRATCH/{variant}/google-benchmark" --seed 404 --est-seconds 8 --gzip-over 32768 \
  --burst-args "--cpu 2" "$@"

#!/bin/sh
# go test -bench runs for the CI-gate evaluation fixtures (Go 1.19.8, standard library only).
#   sh run.sh                     build every variant's package in $SCRATCH and run the whole campaign
#                                 (campaign.py calls this script back once per run)
#   sh run.sh once DIR PREFIX     one run of the suite in DIR, writing PREFIX.txt
# -benchtime 100ms (the shared fixture used 500ms, the default is 1s) keeps one run of the
# suite near 6-8 s, so that 136 runs fit in the time budget.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/go
export GOPROXY=off GOFLAGS=-mod=mod
if [ "$1" = once ]; then
  cd "$2"
  go test -run '^$' -bench . -benchmem -count 5 -benchtime 100ms > "$3.txt"
  exit 0
fi
for v in base one half most small; do
  rm -rf "$SCRATCH/$v"
  mkdir -p "$SCRATCH/$v/microbench"
  cp "$HERE/source/"* "$SCRATCH/$v/microbench/"
  if [ "$v" != base ]; then cp "$HERE/variants/$v/"* "$SCRATCH/$v/microbench/"; fi
  # compile the test binary once, so that the build cache is warm before the first timed run
  (cd "$SCRATCH/$v/microbench" && go vet . && go test -run '^$' -bench XXX . > /dev/null)
done
exec /usr/bin/python3 "$HERE/../campaign.py" --tool go --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/go" \
  --code-dir "$SCRATCH/{variant}/microbench" --seed 101 --est-seconds 7 \
  --burst-args "--cpu 2" "$@"

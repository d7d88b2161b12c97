#!/bin/sh
# pytest-benchmark runs for the CI-gate evaluation fixtures (Debian's /usr/bin/python3 3.11.2,
# pytest 7.2.1, pytest-benchmark 3.2.2, as in the shared fixture).
#   sh run.sh                     lay out every variant in $SCRATCH (each a git repository with one
#                                 commit, so that commit_info is filled) and run the whole campaign
#   sh run.sh prepare             only lay out the variants in $SCRATCH
#   sh run.sh once DIR PREFIX     one run of the suite in DIR: PREFIX.json + PREFIX.txt
# --benchmark-min-time=0.001 --benchmark-max-time=0.25 (the shared fixture used 0.0002 and 0.5)
# keep one run near 4 s and the raw rounds in the JSON near 250 per benchmark.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/pytest-benchmark
export PATH="/usr/bin:/bin"
if [ "$1" = once ]; then
  cd "$2"
  python3 -m pytest test_micro.py -p no:cacheprovider --color=no \
    --benchmark-min-time=0.001 --benchmark-max-time=0.25 \
    --benchmark-json="$3.json" \
    --benchmark-columns=min,max,mean,stddev,median,iqr,ops,rounds \
    > "$3.txt" 2>&1
  exit 0
fi
for v in base one half most small; do
  d="$SCRATCH/$v/pytest"
  rm -rf "$d"
  mkdir -p "$d"
  cp "$HERE/source/"* "$d/"
  if [ "$v" != base ]; then cp -R "$HERE/variants/$v/." "$d/"; fi
  (cd "$d" && git init -q -b main && git add -A &&
    git -c user.name=bench -c user.email=bench@example.invalid commit -q -m "$v" &&
    python3 -m pytest test_micro.py -p no:cacheprovider -q --benchmark-disable > /dev/null)
done
if [ "$1" = prepare ]; then exit 0; fi
exec /usr/bin/python3 "$HERE/../campaign.py" --tool pytest-benchmark --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/pytest-benchmark" \
  --code-dir "$SCRATCH/{variant}/pytest" --seed 303 --est-seconds 5 --gzip-over 32768 \
  --burst-args "--cpu 2" "$@"

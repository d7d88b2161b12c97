#!/bin/sh
# benchmark.js runs for the CI-gate evaluation fixtures (benchmark 2.1.4, lodash 4.18.1, platform 1.3.6,
# Node 20; installed with `npm ci` from source/package-lock.json into each scratch folder).
#   sh run.sh                     lay out every variant in $SCRATCH (code + node_modules) and run the
#                                 whole campaign (campaign.py calls this script back once per run)
#   sh run.sh prepare             only lay out the variants in $SCRATCH
#   sh run.sh once DIR PREFIX     one run of the suite in DIR: PREFIX.txt (its console text)
# source/benchmarkjs.mjs uses { maxTime: 0.5 } (the shared fixture used 2): one run takes about 5 s.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/benchmarkjs
if [ "$1" = once ]; then
  cd "$2"
  node benchmarkjs.mjs > "$3.txt" 2>&1
  exit 0
fi
for v in base one half most small; do
  d="$SCRATCH/$v/js"
  rm -rf "$d"
  mkdir -p "$d"
  cp "$HERE/source/"* "$d/"
  if [ "$v" != base ]; then cp -R "$HERE/variants/$v/." "$d/"; fi
  (cd "$d" && printf 'fund=false\naudit=false\nupdate-notifier=false\n' > .npmrc-run &&
    NPM_CONFIG_USERCONFIG="$PWD/.npmrc-run" npm ci --no-fund --no-audit > npm-ci.log 2>&1)
done
if [ "$1" = prepare ]; then exit 0; fi
exec /usr/bin/python3 "$HERE/../campaign.py" --tool benchmarkjs --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/benchmarkjs" \
  --code-dir "$SCRATCH/{variant}/js" --seed 606 --est-seconds 5 \
  --burst-args "--cpu 2" "$@"

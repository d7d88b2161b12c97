#!/bin/sh
# vitest bench runs for the CI-gate evaluation fixtures (vitest 4.1.12 with tinybench 2.9.0, Node 20;
# installed with `npm ci` from source/package-lock.json into each scratch folder, never into the repo).
#   sh run.sh                     lay out every variant in $SCRATCH (code + node_modules) and run the
#                                 whole campaign (campaign.py calls this script back once per run)
#   sh run.sh prepare             only lay out the variants in $SCRATCH
#   sh run.sh once DIR PREFIX     one run of the suite in DIR: PREFIX.json (--outputJson) + PREFIX.txt
# vitest's own defaults (500 ms per benchmark) are kept: one run takes about 6 s.
# NPM_CONFIG_USERCONFIG points npx at an .npmrc without this machine's "nodedir" key.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/vitest
if [ "$1" = once ]; then
  cd "$2"
  NO_COLOR=1 NPM_CONFIG_USERCONFIG="$PWD/.npmrc-run" \
    npx vitest bench --run --outputJson "$3.json" > "$3.txt" 2>&1
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
exec /usr/bin/python3 "$HERE/../campaign.py" --tool vitest --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/vitest" \
  --code-dir "$SCRATCH/{variant}/js" --seed 505 --est-seconds 6 \
  --burst-args "--cpu 2" "$@"

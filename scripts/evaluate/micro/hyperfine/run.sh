#!/bin/sh
# hyperfine runs for the CI-gate evaluation fixtures (hyperfine 1.15.0, gzip 1.12, GNU sort 9.1,
# Debian's /usr/bin/python3 3.11.2).
#   sh run.sh                     lay out every variant in $SCRATCH (code + data.txt) and run the
#                                 whole campaign (campaign.py calls this script back once per run)
#   sh run.sh prepare             only lay out the variants in $SCRATCH
#   sh run.sh once DIR PREFIX     one run of the suite in DIR: PREFIX.json + PREFIX.txt (three
#                                 commands) and PREFIX.scan.json + PREFIX.scan.txt (gzip level scan)
# --warmup 1 --runs 5 (the shared fixture used 3 and 20) keeps one run of the suite near 5 s on a quiet
# machine (about 15 s at the load average of about 10 that other work made while these ran).
# PATH is DIR/bin, then /usr/bin: a variant that ships a bin/ folder (a gzip or sort wrapper) puts it
# in front of the system tool; base has no bin/ folder.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${SCRATCH_ROOT:-/tmp/eval-micro}/hyperfine
export LC_ALL=C
if [ "$1" = once ]; then
  cd "$2"
  export PATH="$2/bin:/usr/bin:/bin"
  hyperfine --style basic --warmup 1 --runs 5 --export-json "$3.json" \
    'gzip -c -6 data.txt' \
    'sort data.txt' \
    'python3 wordfreq.py data.txt' \
    > "$3.txt" 2>&1
  hyperfine --style basic --warmup 1 --runs 5 --export-json "$3.scan.json" \
    --parameter-scan level 1 9 --parameter-step-size 4 \
    'gzip -c -{level} data.txt' \
    > "$3.scan.txt" 2>&1
  exit 0
fi
export PATH="/usr/bin:/bin"
for v in base one half most small; do
  d="$SCRATCH/$v/hyperfine"
  rm -rf "$d"
  mkdir -p "$d"
  cp "$HERE/source/"* "$d/"
  if [ "$v" != base ]; then cp -R "$HERE/variants/$v/." "$d/"; fi
  (cd "$d" && python3 gen_data.py && echo "7580e8c90c425620f2998087b50eeeaa  data.txt" | md5sum -c -)
  # every variant must print what base prints
  (cd "$d" && PATH="$d/bin:/usr/bin:/bin" sh -c 'python3 wordfreq.py data.txt; sort data.txt | md5sum; gzip -c -6 data.txt | gzip -dc | md5sum' > "$SCRATCH/$v.check")
  cmp "$SCRATCH/base.check" "$SCRATCH/$v.check"
done
if [ "$1" = prepare ]; then exit 0; fi
exec /usr/bin/python3 "$HERE/../campaign.py" --tool hyperfine --run-sh "$HERE/run.sh" --out-dir "${EVAL_DATA:-$HERE/..}/hyperfine" \
  --code-dir "$SCRATCH/{variant}/hyperfine" --seed 202 --est-seconds 10 \
  --burst-args "--cpu 2" "$@"

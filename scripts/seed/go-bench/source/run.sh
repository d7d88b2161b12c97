#!/bin/sh
# The demo's go test -bench history (npm run seed:demo, project microbench-demo): real runs of the shared
# fixtures' Go package (../../../../../shared/fixtures/micro/go/source, copied here), made on this project's
# development machine with Debian's Go 1.19.8 (apt-get install golang-go). 9 runs of the package as it
# is, then 7 with JoinInts rewritten to format each int with fmt.Sprint and strings.Join
# (micro_slow.go.txt: a real code change, slower and with more allocations). Nothing is edited afterwards.
set -e
export GOPROXY=off GOFLAGS=-mod=mod
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../runs"
work=$(mktemp -d)
mkdir -p "$out"
cp "$here/go.mod" "$here/micro.go" "$here/micro_test.go" "$work/"
cd "$work"
for i in 1 2 3 4 5 6 7 8 9; do
  go test -run '^$' -bench . -benchmem -count 5 -benchtime 200ms > "$out/baseline-$i.txt"
done
cp "$here/micro_slow.go.txt" micro.go
for i in 1 2 3 4 5 6 7; do
  go test -run '^$' -bench . -benchmem -count 5 -benchtime 200ms > "$out/slow-joinints-$i.txt"
done
rm -rf "$work"

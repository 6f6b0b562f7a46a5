#!/usr/bin/env bash
# roundtrip.sh FILE [tile-opt args...]: print FILE canonically, then check that
# re-parsing the canonical, fully qualified (-t mlir) and generic forms all
# print the same text again.  Prints the canonical text for FileCheck.
set -euo pipefail
file=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tile-opt "$file" "$@" > "$tmp/a"
tile-opt "$tmp/a" "$@" > "$tmp/b"
tile-opt "$tmp/a" "$@" -t mlir | tile-opt "$@" > "$tmp/c"
tile-opt "$tmp/a" "$@" --print-op-generic | tile-opt "$@" > "$tmp/d"
for f in b c d; do
  if ! diff -u "$tmp/a" "$tmp/$f" >&2; then
    echo "roundtrip.sh: $file: printing is not stable (form $f)" >&2
    exit 1
  fi
done
cat "$tmp/a"

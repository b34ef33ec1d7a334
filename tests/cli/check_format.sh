#!/usr/bin/env bash
# Every C source and header follows .clang-format (STYLE.md: CI checks it). Skipped (exit 77)
# where clang-format is not installed, since a fresh machine need not have it to build.
# Usage: check_format.sh SOURCE_DIR
set -u
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not installed: skipped"; exit 77; }
cd "$1" || exit 2
files=$(find sim models scenarios validate planner report cli tests -name '*.[ch]' -not -path '*/build*' | sort)
bad=$(clang-format --dry-run $files 2>&1 | grep -o '^[^:]*\.[ch]' | sort -u)
if [ -n "$bad" ]; then
    echo "not formatted (run: clang-format -i FILE):"
    echo "$bad"
    exit 1
fi
echo "$(echo "$files" | wc -l) files formatted"

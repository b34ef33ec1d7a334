#!/usr/bin/env bash
# Every run a page of docs/ (or a scenarios/checks/ set's README) quotes is the command's output,
# never typed by hand. A quoted run is
# an HTML comment naming the command, then a fenced block holding exactly what it prints:
#
#   <!-- quote: strata run scenarios/examples/quickstart.yaml | sed -n '/^  step/,/optimizer/p' -->
#   ```
#   ...
#   ```
#
# The block is the command's standard output; warnings on stderr are not quoted.
# The command runs under bash from the source folder with this build's strata first on PATH and
# $QUOTE_TMP a scratch folder (for scenario variants written with sed). The test fails when a
# block differs from its command's output or the command fails; UPDATE_DOCS=1 rewrites the blocks.
# usage: check_doc_quotes.sh STRATA SRCDIR
set -uo pipefail
strata=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
bindir=$(mktemp -d)
export QUOTE_TMP
QUOTE_TMP=$(mktemp -d)
trap 'rm -rf "$bindir" "$QUOTE_TMP"' EXIT
ln -s "$strata" "$bindir/strata"
export PATH="$bindir:$PATH"

fail=0 quotes=0
for doc in README.md docs/*.md docs/*/*.md scenarios/checks/*/README.md; do
    [ -f "$doc" ] || continue
    grep -q '^<!-- quote: ' "$doc" || continue
    out=$(mktemp)
    mapfile -t lines <"$doc"
    i=0 n=${#lines[@]}
    while ((i < n)); do
        line=${lines[i]}
        printf '%s\n' "$line" >>"$out"
        i=$((i + 1))
        [[ $line =~ ^'<!-- quote: '(.*)' -->'$ ]] || continue
        cmd=${BASH_REMATCH[1]}
        quotes=$((quotes + 1))
        if ((i >= n)) || [[ ! ${lines[i]} =~ ^'```' ]]; then
            echo "$doc:$i: a quote comment must be followed by a fenced block"
            fail=1
            continue
        fi
        printf '%s\n' "${lines[i]}" >>"$out"
        i=$((i + 1))
        quoted=$(mktemp)
        while ((i < n)) && [[ ! ${lines[i]} =~ ^'```'$ ]]; do
            printf '%s\n' "${lines[i]}" >>"$quoted"
            i=$((i + 1))
        done
        actual=$(mktemp) errors=$(mktemp)
        if ! bash -c "$cmd" >"$actual" 2>"$errors"; then
            echo "$doc: the quoted command failed: $cmd"
            sed 's/^/    /' "$errors" | head -5
            fail=1
        elif ! cmp -s "$quoted" "$actual"; then
            if [ -n "${UPDATE_DOCS:-}" ]; then
                echo "$doc: rewrote the output of: $cmd"
            else
                echo "$doc: the block differs from the output of: $cmd"
                diff "$quoted" "$actual" | head -10
                fail=1
            fi
        fi
        cat "$actual" >>"$out"
        rm -f "$quoted" "$actual" "$errors"
    done
    if [ -n "${UPDATE_DOCS:-}" ] && ! cmp -s "$out" "$doc"; then
        cat "$out" >"$doc" || fail=1
    fi
    rm -f "$out"
done
if ((fail)); then
    echo "(regenerate with: UPDATE_DOCS=1 $0 $1 $2)"
    exit 1
fi
echo "$quotes quoted runs match their commands"

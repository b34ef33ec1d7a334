#!/usr/bin/env bash
# Every project include ("dir/file.h") in the library folders must follow tests/layering.rules:
# a file's component (sim, models/<level>, models/config, scenarios, validate, planner, cli) may include
# only its own component and the ones its rule lists. Prints each include that runs against the
# order and exits 1; exits 2 when the rules are unreadable.
# Usage: check_layering.sh SOURCE_DIR [RULES]
set -u
root=${1:?usage: check_layering.sh SOURCE_DIR [RULES]}
rules=${2:-$root/tests/layering.rules}
[ -r "$rules" ] || { echo "check_layering: cannot read $rules" >&2; exit 2; }
cd "$root" || exit 2

# The component of a path: models/<folder>/... is that folder (models/config among them),
# anything else its first folder.
component() {
    case $1 in
    models/*/*) local rest=${1#models/}; echo "models/${rest%%/*}" ;;
    */*) echo "${1%%/*}" ;;
    *) echo "$1" ;;
    esac
}

declare -A allowed known
while read -r comp deps; do
    [ -z "$comp" ] || [ "${comp:0:1}" = "#" ] && continue
    known[$comp]=1
    allowed[$comp]=" $comp $deps "
done <"$rules"

bad=0 checked=0
files=$(find sim models scenarios validate planner report cli -name '*.[ch]' 2>/dev/null | sort)
for f in $files; do
    from=$(component "$f")
    if [ -z "${known[$from]:-}" ]; then
        echo "$f: folder '$from' has no rule in $rules"
        bad=1
        continue
    fi
    while IFS=: read -r line inc; do
        checked=$((checked + 1))
        to=$(component "$inc")
        case ${allowed[$from]} in
        *" $to "*) ;;
        *) echo "$f:$line: includes \"$inc\": $from may not include $to"; bad=1 ;;
        esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r inc; do echo "$(grep -n "\"$inc\"" "$f" | head -1 | cut -d: -f1):$inc"; done)
done
[ $bad -eq 0 ] && echo "$checked includes in $(echo "$files" | wc -w) files follow $(basename "$rules")"
exit $bad

#!/usr/bin/env bash
# Text is UTF-8 in, UTF-8 out, and no writer runs what a name holds (issue 27, items 4 and 5).
# tests/cli/utf8/names.yaml: the issue's 16-character Chinese job name and names longer than any
# fixed buffer, through run (json, text, html, markdown, csv, --trace), audit, compare and size
# in every format: each output is well-formed UTF-8, parses as its format (JSON by json.load,
# HTML by check_report.py's XML parser) and holds every name whole. tests/cli/utf8/inject.yaml:
# a spreadsheet formula, <script> and a javascript: link as names: every CSV cell is one a
# spreadsheet does not run (OWASP "CSV Injection") and every Markdown file holds no HTML, link
# or code span. Usage: run_utf8.sh STRATA SRC
set -u
strata=$1
cd "$2" || exit 2
check="python3 tests/cli/check_report.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if ! eval "$1" >"$tmp/why" 2>&1; then echo "FAIL $2"; cat "$tmp/why"; fail=$((fail + 1)); fi; }

u=tests/cli/utf8/names.yaml
short=大规模语言模型预训练任务第一阶段
long=$(sed -n 's/^  - { <<: \*job, name: \([^,]*\),.*/\1/p' "$u")
scn=$(sed -n 's/^name: //p' "$u")
ok '[ ${#long} -gt 100 ] && [ ${#scn} -gt 100 ]' "the fixture's long names are read"

# run: every format, and the Perfetto trace of the long-named job.
for f in json text html markdown csv; do
    "$strata" run "$u" --format "$f" >"$tmp/run.$f" 2>"$tmp/err"
    ok '[ $? -le 1 ] && [ ! -s "$tmp/err" ]' "run --format $f: runs"
    ok '$check utf8 "$tmp/run.$f" $f "$short" "$long" "$scn"' "run --format $f: UTF-8, names whole"
done
ok '$check csv "$tmp/run.csv" "$tmp/run.json"' "run --format csv: the JSON's leaves"
"$strata" run "$u" --trace "$tmp/trace.json" --trace-job "$long" >/dev/null 2>&1
ok '$check utf8 "$tmp/trace.json" json "$long: pipeline stage 0" "$long: pipeline stage 1"' \
    "run --trace: Perfetto JSON, process names whole"
"$strata" audit "$u" >"$tmp/audit.txt" 2>&1
ok '$check utf8 "$tmp/audit.txt" text "memory per GPU: $short:" "memory headroom: $long:"' \
    "audit: checks name their job whole"
ok 'python3 -c "import json,sys; a=json.load(open(sys.argv[1]))[\"audit\"]; \
    assert \"memory per GPU: \" + sys.argv[2] in [x[\"check\"] for x in a]" "$tmp/run.json" "$short"' \
    "run --format json: audit[i].check holds the whole job name"

# compare and size: every format.
for f in json csv markdown html text; do
    "$strata" compare "$u" --policies fifo,backfill --format "$f" >"$tmp/cmp.$f" 2>"$tmp/err"
    names=()
    case $f in json | html | text) names=("$scn") ;; esac
    ok '$check utf8 "$tmp/cmp.$f" $f "${names[@]}"' "compare --format $f: UTF-8, names whole"
    "$strata" size "$u" --workload "$long" --deadline 1h --format "$f" >"$tmp/size.$f" 2>"$tmp/err"
    names=()
    case $f in json | html | text | markdown) names=("$long") ;; esac
    ok '$check utf8 "$tmp/size.$f" $f "${names[@]}"' "size --format $f: UTF-8, names whole"
done
ok '$check html "$tmp/cmp.html" "$tmp/cmp.json" queue-waits 20' "compare --format html: the JSON's numbers"
ok '$check html "$tmp/size.html" "$tmp/size.json" size-pareto 20 "$scn"' "size --format html: the JSON's numbers"
ok '$check html "$tmp/run.html" "$tmp/run.json" "" 100' "run --format html: the JSON's numbers"

# A name no format may run.
j=tests/cli/utf8/inject.yaml
"$strata" run "$j" --format json >"$tmp/i.json" 2>/dev/null
for f in csv markdown html; do
    "$strata" run "$j" --format "$f" >"$tmp/i-run.$f" 2>/dev/null
    "$strata" compare "$j" --policies fifo,backfill --format "$f" >"$tmp/i-cmp.$f" 2>/dev/null
    "$strata" size "$j" --deadline 1h --format "$f" >"$tmp/i-size.$f" 2>/dev/null
done
for c in run cmp size; do
    ok '$check safe-csv "$tmp/i-$c.csv"' "$c --format csv: no cell runs as a formula"
    ok '$check safe-md "$tmp/i-$c.markdown"' "$c --format markdown: no HTML, link or code span"
    ok '! grep -q "<script" "$tmp/i-$c.html"' "$c --format html: no <script> element"
done
ok 'grep -qF "jobs[0].name,\"'"'"'=cmd|'"'"' /C calc'"'"'!A0\"" "$tmp/i-run.csv"' \
    "run --format csv: the formula name quoted after a single quote"
ok '$check csv "$tmp/i-run.csv" "$tmp/i.json"' "run --format csv: still the JSON's leaves"
ok 'grep -qF "| &lt;script&gt;alert(1)&lt;/script&gt; | jobs\\[1\\].name |" "$tmp/i-run.markdown"' \
    "run --format markdown: <script> as entities"
ok 'grep -qF "| \\[x\\](javascript:alert(1)) | jobs\\[2\\].name |" "$tmp/i-run.markdown"' \
    "run --format markdown: no link from [x](javascript:...)"
ok '$check html "$tmp/i-run.html" "$tmp/i.json" "" 100' "run --format html: escaped, parses"
# What the user types is echoed escaped, never run by a terminal (a fuzzing find): a file name,
# an option's value; sweep's --set refuses control characters as a file's values are refused;
# and size's report of a file whose name is not UTF-8 stays UTF-8.
esc=$(printf '\033')
"$strata" run "nope${esc}[2J.yaml" >"$tmp/e1" 2>&1
rc=$?
ok '[ $rc -eq 2 ] && ! grep -q "$esc" "$tmp/e1" && grep -qF "nope\\x1b[2J.yaml" "$tmp/e1"' \
    "run: a file name's escape echoed as \\x1b"
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h --gpu-types "h1$(printf '\377')${esc}[2J" \
    >"$tmp/e2" 2>&1
rc=$?
ok '[ $rc -eq 2 ] && ! grep -q "$esc" "$tmp/e2" && grep -qF "h1\\xff\\x1b[2J" "$tmp/e2"' \
    "size --gpu-types: a bad byte and an escape echoed as \\xNN"
"$strata" sweep scenarios/examples/quickstart.yaml --set "workloads[0].name=a${esc}[2Jb" \
    >"$tmp/e3" 2>&1
rc=$?
ok '[ $rc -eq 2 ] && ! grep -q "$esc" "$tmp/e3" && grep -q "a control character (U+001B)" "$tmp/e3"' \
    "sweep --set: a control character refused"
bad="$tmp/q$(printf '\377').yaml"
cp scenarios/examples/quickstart.yaml "$bad"
"$strata" size "$bad" --deadline 1h --format json >"$tmp/e4.json" 2>/dev/null
ok 'python3 -c "import json,sys; json.loads(open(sys.argv[1],\"rb\").read().decode(\"utf-8\"))" "$tmp/e4.json"' \
    "size --format json: a non-UTF-8 file name reported as UTF-8"
# The checkers themselves refuse what they guard against.
printf 'a,b\n=cmd|x,1\n' >"$tmp/bad.csv"
ok '! $check safe-csv "$tmp/bad.csv"' "checker: refuses a formula cell"
printf '| a | b |\n| <b>x</b> | [x](javascript:y) |\n' >"$tmp/bad.md"
ok '! $check safe-md "$tmp/bad.md"' "checker: refuses raw HTML and a link"
# check's ok line names a file as its error line would: ESC and a byte that is not UTF-8 in the
# name made visible, never sent to the terminal raw.
odd="$tmp/sc"$'\x1b[31mRED\xff'".yaml"
cp scenarios/examples/quickstart.yaml "$odd"
"$strata" check "$odd" >"$tmp/ok.txt" 2>&1
ok '! grep -q $'"'"'\x1b'"'"' "$tmp/ok.txt" && grep -q "sc\\\\x1b\[31mRED\\\\xff.yaml: ok:" "$tmp/ok.txt"' "check: the ok line escapes the file's name"
# A warning quoting a trace's field shows a byte that is not UTF-8 as \xNN, as an error does
# (a fuzzing find: the raw bytes reached the terminal).
printf 'submit,gpus,duration\n\xff,8,10\n0,8,10\n' >"$tmp/t.csv"
printf 'version: 1\ncluster: { gpu: h100-sxm, nodes: 4 }\ntrace: { file: t.csv }\n' >"$tmp/t.yaml"
"$strata" check "$tmp/t.yaml" >"$tmp/tw.txt" 2>&1
ok 'python3 -c "import sys; t = open(sys.argv[1], \"rb\").read().decode(\"utf-8\"); assert chr(92) + \"xff\" in t, t" "$tmp/tw.txt"' \
    "check: a warning escapes a trace field's bytes"
# An unknown enum value longer than the message: cut between characters, not inside one.
v=$(printf '训%.0s' $(seq 100))
printf 'version: 1\ncluster: { gpu: h100-sxm, nodes: 1 }\nworkloads:\n  - { name: j, model: llama3-8b, gpus: 8, parallel: { recompute: "%s" } }\n' "$v" >"$tmp/enum.yaml"
"$strata" check "$tmp/enum.yaml" >"$tmp/enum.txt" 2>&1
ok 'python3 -c "import sys; t = open(sys.argv[1], \"rb\").read().decode(\"utf-8\"); assert \"unknown recompute\" in t and chr(92) + \"x\" not in t, t" "$tmp/enum.txt"' \
    "check: a long unknown enum value is cut between characters, no byte escaped"
head -c 100 "$tmp/trace.json" >"$tmp/cut.json"
printf '\xe5\xa4' >>"$tmp/cut.json"
ok '! $check utf8 "$tmp/cut.json" text' "checker: refuses half a character"
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]

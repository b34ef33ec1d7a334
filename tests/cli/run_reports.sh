#!/usr/bin/env bash
# Reports a planner can hand on (docs/guide/reports.md): `--format html`, `csv` and `markdown` on
# run, compare, sweep and size. Each HTML file must parse as XML, load nothing from outside, hold
# every chart by id and show the JSON report's numbers (tests/cli/check_report.py, which must also
# refuse a tampered copy); the same scenario and seed must give the same bytes; run's CSV must be
# its JSON's leaves; a write that fails must fail the command.
# Usage: run_reports.sh STRATA SRC
set -u
strata=$1
cd "$2" || exit 2
check="python3 tests/cli/check_report.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if ! eval "$1"; then echo "FAIL $2"; fail=$((fail + 1)); fi; }
unterm() { bash tests/cli/unterm.sh "$1"; } # the page without its terms' marks
rack=scenarios/examples/rack-cooling-air.yaml
# one job: no queue-waits chart (a CDF of one wait is an empty frame); the summary and the title
# are check_report.py's. The rack example states no failures: its replicas' walls are all the
# same, one vertical step, which the page says in words instead of drawing (below).
run_ids=step-breakdown,memory-per-gpu,power-waveform,power-spectrum,rack-feed

# run: every chart, the JSON's numbers, byte-identical twice, a different seed differs.
"$strata" run "$rack" --replicas 4 --format html -o "$tmp/r.html" 2>/dev/null
"$strata" run "$rack" --replicas 4 --format html >"$tmp/r2.html" 2>/dev/null
"$strata" run "$rack" --replicas 4 --format json >"$tmp/r.json" 2>/dev/null
ok '$check html "$tmp/r.html" "$tmp/r.json" "$run_ids" 100' "run: html against json"
ok 'cmp -s "$tmp/r.html" "$tmp/r2.html"' "run: -o and stdout give the same bytes"
# a chart whose values are all the same is a sentence, not a frame with one step in it: the
# rack example's replicas (nothing fails), the diurnal service's waits (all 0 s, the example's
# day shrunk to 24 minutes); a job that fails draws its lives' distribution
ok '! grep -q "id=\"failure-life\"" "$tmp/r.html" && grep -q "<p class=\"absent\">Every replica of the training job ran the same wall time, [0-9.]* min (no failure changed it)" "$tmp/r.html"' "run: no chart of replicas that all read the same"
sed 's/ h, rate/ min, rate/' scenarios/examples/serve-diurnal.yaml >"$tmp/diurnal.yaml"
"$strata" run "$tmp/diurnal.yaml" --format html >"$tmp/dn.html" 2>/dev/null
ok '! grep -q "id=\"queue-waits\"" "$tmp/dn.html" && grep -q "<p class=\"absent\">One job went through the queue: its wait is in its table, and there is no distribution to draw.</p>" "$tmp/dn.html"' "run: a service's replica stretches are no waits to chart"
# waits that are all the same are said, not drawn: the queue example on nodes enough for all
sed 's/nodes: [0-9]*/nodes: 64/' scenarios/examples/queue.yaml >"$tmp/q64.yaml"
"$strata" run "$tmp/q64.yaml" --format html >"$tmp/q64.html" 2>/dev/null
ok '! grep -q "id=\"queue-waits\"" "$tmp/q64.html" && grep -q "<p class=\"absent\">All 4 waits in the queue were 0 s: with every wait the same there is no distribution to draw.</p>" "$tmp/q64.html"' "run: no chart of waits that are all 0 s"
"$strata" run scenarios/examples/llama3-405b-16k.yaml --replicas 3 --format html >"$tmp/l3.html" 2>/dev/null
ok 'grep -q "<svg [^>]*id=\"failure-life\"" "$tmp/l3.html"' "run: lives that fail differently are drawn"
"$strata" run "$rack" --replicas 4 --format html --seed 99 >"$tmp/r3.html" 2>/dev/null
ok '! cmp -s "$tmp/r.html" "$tmp/r3.html"' "run: another seed, another report"
if command -v xmllint >/dev/null; then
    ok 'xmllint --noout "$tmp/r.html"' "run: xmllint parses the html"
fi
# A decision-maker's page: the answer in words first (the audit's counts in it), the audit with
# FAIL rows first and marked, figures named by their rows' labels with the key on hover, no chart
# without data, tables in a box that scrolls (tests/cli/check_browser.sh renders the pages).
ok 'unterm "$tmp/r.html" | grep -q "<p class=\"summary\" id=\"summary\">Trains llama3-8b (job finetune) in [^<]* on 32 h100-sxm GPUs (MFU [0-9.]*%, mean goodput [0-9.]*%; no failures modelled: the scenario states none) at [0-9.]* [kM]W facility peak[^<]*; audit: 2 FAIL, 0 WARN of [0-9]* checks.</p>"' "run: the answer in words"
ok 'grep -o "<tr class=\"[a-z]*\"><td class=\"status\">[A-Z]*" "$tmp/r.html" | head -1 | grep -q "^<tr class=.fail.><td class=.status.>FAIL$"' "run: the audit's failures first, marked"
ok 'grep -q "title=\"Breaker headroom (JSON key power.racks.headroom_a)\">Breaker headroom<" "$tmp/r.html" && ! grep -q "<td>racks.headroom_a</td>" "$tmp/r.html" && grep -q "<td class=\"num\" title=\"Breaker headroom\" data-key=\"power.racks.headroom_a\"" "$tmp/r.html"' "run: figures by their labels, the label on hover before the key"
# the text writes a checkpoint's times in the unit that reads best, as the HTML does (5.419 ms,
# not 0.005419 s)
ok '"$strata" run scenarios/examples/llama3-405b-16k.yaml 2>/dev/null | grep -q "^  saves     async every 1.631 h (auto: Daly, 860 steps): stall 5.419 ms, restorable after 2.847 s, restore 818.1 ms$"' "text: checkpoint times as the HTML writes them"
# the life the headline gives is one draw: with replicas the text says where it sits among them
# (on the 405B example, below their P10); alone it says nothing of them
ok '"$strata" run scenarios/examples/llama3-405b-16k.yaml --replicas 20 2>/dev/null | grep -q "^            one life: replica 0 of the 20 below, its wall below their P10$" && ! "$strata" run scenarios/examples/llama3-405b-16k.yaml 2>/dev/null | grep -q "one life:"' "text: the headline life placed among the replicas"
# the UPS's load, 100% of a rating the plant sized to the peak, says so as the text does; the
# spectrum is titled for the waveform it is of
ok 'grep -q ">UPS load, of a rating sized to the peak</td>" "$tmp/r.html" && grep -q "<title>Spectrum of the IT and distribution power" "$tmp/r.html"' "run: the UPS load's qualifier, the spectrum's title"
ok '! grep -q "id=\"queue-waits\"" "$tmp/r.html" && grep -q "One job went through the queue" "$tmp/r.html"' "run: no queue-wait chart of one job"
ok '[ "$(grep -o "<table" "$tmp/r.html" | wc -l)" -eq "$(grep -o "<div class=\"table-box\"><table" "$tmp/r.html" | wc -l)" ]' "run: every table in its scrolling box"
# -o's name chooses the format --format leaves out, in every command; one that disagrees is
# refused before anything runs (`strata run -o r.html` wrote JSON into r.html)
"$strata" run "$rack" --replicas 4 -o "$tmp/n.HTML" >/dev/null 2>&1
ok 'cmp -s "$tmp/r.html" "$tmp/n.HTML"' "run: -o r.html writes the page"
"$strata" run "$rack" --replicas 4 -o "$tmp/n.json" >"$tmp/n.txt" 2>/dev/null
ok 'grep -q "^strata " "$tmp/n.txt" && python3 -m json.tool "$tmp/n.json" >/dev/null' "run: -o r.json beside the text"
ok '"$strata" compare scenarios/examples/preemption.yaml -o "$tmp/c.md" && grep -q "^| policy" "$tmp/c.md"' "compare: -o c.md writes Markdown"
ok '"$strata" sweep scenarios/examples/quickstart.yaml --set cluster.nodes=1,2 -o "$tmp/w.json" 2>/dev/null && python3 -m json.tool "$tmp/w.json" >/dev/null' "sweep: -o w.json writes JSON"
ok '"$strata" size scenarios/examples/quickstart.yaml --deadline 30d -o "$tmp/z.csv" && head -1 "$tmp/z.csv" | grep -q ","' "size: -o z.csv writes CSV"
for c in "run $rack --format text -o $tmp/x.csv" "compare $rack --format html -o $tmp/x.md" \
    "sweep $rack --set cluster.nodes=1,2 --format csv -o $tmp/x.json" \
    "size $rack --deadline 30d --format json -o $tmp/x.htm"; do
    # shellcheck disable=SC2086 # the words of each command line
    "$strata" $c >/dev/null 2>"$tmp/x.err"
    rc=$?
    ok '[ $rc -eq 2 ] && grep -q "names an\{0,1\} [A-Za-z]* file, but --format" "$tmp/x.err" && ! ls "$tmp"/x.csv "$tmp"/x.md "$tmp"/x.json "$tmp"/x.htm 2>/dev/null' "${c%% *}: a --format that disagrees with -o's name"
done
# A .txt gets the text a command prints, in place of stdout (size -o r.txt wrote JSON into it,
# the text still on stdout); a command with no text refuses one unless --format says what it
# gets (sweep -o r.txt wrote CSV into it); --format json with a .txt disagrees.
q=scenarios/examples/quickstart.yaml
"$strata" run "$q" >"$tmp/t-run.want" 2>/dev/null
"$strata" run "$q" -o "$tmp/t-run.txt" >"$tmp/t.out" 2>/dev/null
ok 'cmp -s "$tmp/t-run.txt" "$tmp/t-run.want" && [ ! -s "$tmp/t.out" ]' "run: -o r.txt writes the text"
"$strata" run "$q" --format text -o "$tmp/t-run2.txt" >/dev/null 2>&1
ok 'cmp -s "$tmp/t-run2.txt" "$tmp/t-run.want"' "run: --format text -o r.txt writes the text"
"$strata" size "$q" --deadline 1h >"$tmp/t-size.want" 2>/dev/null
"$strata" size "$q" --deadline 1h -o "$tmp/t-size.txt" >"$tmp/t.out" 2>/dev/null
ok 'cmp -s "$tmp/t-size.txt" "$tmp/t-size.want" && [ ! -s "$tmp/t.out" ]' "size: -o r.txt writes the text"
"$strata" compare scenarios/examples/preemption.yaml >"$tmp/t-cmp.want" 2>/dev/null
"$strata" compare scenarios/examples/preemption.yaml -o "$tmp/t-cmp.txt" >/dev/null 2>&1
ok 'cmp -s "$tmp/t-cmp.txt" "$tmp/t-cmp.want"' "compare: -o r.txt writes the text table"
"$strata" sweep "$q" --set cluster.nodes=1,2 -o "$tmp/t-sw.txt" >/dev/null 2>"$tmp/x.err"
rc=$?
ok '[ $rc -eq 2 ] && grep -q "strata sweep: -o .*t-sw.txt. names a text file, but sweep writes no plain text" "$tmp/x.err" && [ ! -e "$tmp/t-sw.txt" ] && [ ! -e "$tmp/t-sw.txt.journal" ]' "sweep: -o r.txt refused, saying why"
ok '"$strata" sweep "$q" --set cluster.nodes=1,2 --format csv -o "$tmp/t-sw.txt" 2>/dev/null && head -1 "$tmp/t-sw.txt" | grep -q "^cluster.nodes,status"' "sweep: --format csv -o r.txt writes CSV"
"$strata" run "$q" --format json -o "$tmp/t-j.txt" >/dev/null 2>"$tmp/x.err"
rc=$?
ok '[ $rc -eq 2 ] && grep -q "names a text file, but --format json writes JSON to it" "$tmp/x.err"' "run: --format json disagrees with -o r.txt"
cloud=scenarios/examples/finetune-70b-cloud.yaml
"$strata" run "$cloud" --format html >"$tmp/k.html" 2>/dev/null
"$strata" run "$cloud" --format json >"$tmp/k.json" 2>/dev/null
ok '$check html "$tmp/k.html" "$tmp/k.json" cost-breakdown,step-breakdown 50' "run: the cost breakdown chart"
# the summary's cost is the JSON's cost.total_usd, to the dollar
cloud_usd=$(python3 -c 'import json, sys; print("%.0f" % json.load(open(sys.argv[1]))["cost"]["total_usd"])' "$tmp/k.json")
ok 'grep -q "<text[^>]*>GPU rental</text>" "$tmp/k.html" && unterm "$tmp/k.html" | grep -q "<p class=\"summary\" id=\"summary\">[^<]*costing $cloud_usd USD; audit: 0 FAIL, 2 WARN"' "run: cost parts by their labels, the cost in the summary ($cloud_usd USD)"
# The checker itself refuses a wrong number, a missing chart and a torn file.
sed 's/data-value="32"/data-value="33"/' "$tmp/r.html" >"$tmp/bad1.html"
ok '! $check html "$tmp/bad1.html" "$tmp/r.json" "$run_ids" 1 >/dev/null' "checker: refuses a wrong number"
sed 's/id="rack-feed"/id="other"/' "$tmp/r.html" >"$tmp/bad2.html"
ok '! $check html "$tmp/bad2.html" "$tmp/r.json" "$run_ids" 1 >/dev/null' "checker: refuses a missing chart"
head -c 5000 "$tmp/r.html" >"$tmp/bad3.html"
ok '! $check html "$tmp/bad3.html" "$tmp/r.json" "" 1 >/dev/null 2>&1' "checker: refuses a torn file"
# ... a number in another unit than its documented one (the docs' report tables): a PUE is a
# plain number, a clock share is in percent, whatever the number shown.
sed 's|data-key="power.pue" data-value="\([0-9.]*\)">\([0-9.]*\)<|data-key="power.pue" data-value="\1">\2 W<|' "$tmp/r.html" >"$tmp/bad6.html"
ok '! cmp -s "$tmp/r.html" "$tmp/bad6.html" && ! $check html "$tmp/bad6.html" "$tmp/r.json" "" 1 >/dev/null' "checker: refuses a PUE in watts"
sed 's|data-key="jobs\[0\].thermal.clock" data-value="1">100%<|data-key="jobs[0].thermal.clock" data-value="1">1<|' "$tmp/r.html" >"$tmp/bad7.html"
ok '! cmp -s "$tmp/r.html" "$tmp/bad7.html" && ! $check html "$tmp/bad7.html" "$tmp/r.json" "" 1 >/dev/null' "checker: refuses a share not in percent"
sed 's|<title>|<script src="https://x.example/a.js"></script><title>|' "$tmp/r.html" >"$tmp/bad4.html"
ok '! $check html "$tmp/bad4.html" "$tmp/r.json" "" 1 >/dev/null' "checker: refuses a script"
sed 's|id="summary"|id="other"|' "$tmp/r.html" >"$tmp/bad8.html"
ok '! $check html "$tmp/bad8.html" "$tmp/r.json" "" 1 >/dev/null' "checker: refuses a page without its summary"
sed 's|<h1>|<h1>Strata report: |' "$tmp/r.html" >"$tmp/bad9.html"
ok '! $check html "$tmp/bad9.html" "$tmp/r.json" "" 1 >/dev/null' "checker: refuses a title that is not the scenario's name"

# run: CSV rows are the JSON's leaves; Markdown tables.
"$strata" run "$rack" --replicas 4 --format csv >"$tmp/r.csv" 2>/dev/null
ok '$check csv "$tmp/r.csv" "$tmp/r.json"' "run: csv against json"
# the same replicas as the page: the wall time's error band combines their spread
"$strata" run "$rack" --replicas 4 --format markdown >"$tmp/r.md" 2>/dev/null
ok 'grep -q "^| figure | value | key |" "$tmp/r.md" && grep -q "^## Pre-flight audit" "$tmp/r.md" && grep -q "^| Step time | [0-9.]* s | jobs\\\\\[0\\\\\]\.step_time_s |" "$tmp/r.md"' "run: markdown"
# each row named as the HTML names it, a band's ends apart (it read "step_time_s_band\[0\]")
ok 'grep -qF "| Memory per GPU | " "$tmp/r.md" && grep -qF " GB | jobs\[0\].memory_per_gpu_bytes |" "$tmp/r.md" && grep -qF "| Step time'"'"'s error band (low end) | " "$tmp/r.md" && grep -qF " s | jobs\[0\].step_time_s_band\[0\] |" "$tmp/r.md"' "run: markdown rows by their labels"
ok '[ "$(sed -n 1p "$tmp/r.md")" = "# $(sed -n "s/^name: //p" "$rack")" ] && [ "$(sed -n 3p "$tmp/r.md")" = "$(unterm "$tmp/r.html" | sed -n "s/.*id=\"summary\">\([^<]*\)<.*/\1/p")" ]' "run: markdown opens with the name and the same summary"
ok 'grep -q "^| UPS load, of a rating sized to the peak | [0-9.]*% | power.ups.load |" "$tmp/r.md"' "run: markdown shows the UPS load in percent"
# the UPS load's words are every format's (report/leaves.c): the qualifier of a rating the plant
# sized to the peak where the scenario states none, the plain label where it states one
ok '"$strata" run "$rack" 2>/dev/null | grep -q "UPS [0-9.]* [kM]*W at [0-9.]*% of a rating sized to the peak"' "run: text says the UPS load's qualifier"
sed 's/^cluster:$/cluster:\n  facility: { ups: { rating: 60 kW } }/' "$rack" >"$tmp/ups.yaml"
"$strata" run "$tmp/ups.yaml" --format markdown >"$tmp/ups.md" 2>/dev/null
"$strata" run "$tmp/ups.yaml" --format html >"$tmp/ups.html" 2>/dev/null
ok 'grep -q "^| UPS load | [0-9.]*% | power.ups.load |" "$tmp/ups.md" && grep -q ">UPS load</td>" "$tmp/ups.html" && "$strata" run "$tmp/ups.yaml" 2>/dev/null | grep -q "UPS [0-9.]* [kM]*W at [0-9.]*% load"' "run: a stated UPS rating, a plain load in every format"
"$strata" run "$rack" --format nope >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "text, json, html, markdown or csv" "$tmp/e"' "run: unknown format"
"$strata" run "$rack" --format html -o /dev/full 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 1 ] && grep -q "/dev/full" "$tmp/e"' "run: -o /dev/full fails"
"$strata" run "$rack" --format html >/dev/full 2>/dev/null; rc=$?
ok '[ $rc -eq 1 ]' "run: a full stdout fails"

# compare: the waits' CDF per policy, the JSON's numbers.
q=scenarios/examples/queue.yaml
"$strata" compare "$q" --policies fifo,backfill --format html >"$tmp/c.html" 2>/dev/null
"$strata" compare "$q" --policies fifo,backfill --format json >"$tmp/c.json" 2>/dev/null
ok '$check html "$tmp/c.html" "$tmp/c.json" queue-waits 20' "compare: html against json"
# in compare's wide table a cell says on hover whose figure it is
ok 'grep -q "<td class=\"num\" title=\"fifo: Makespan\" data-key=\"policies\[0\].makespan_s\"" "$tmp/c.html"' "compare: a cell names its policy and figure on hover"
ok 'unterm "$tmp/c.html" | grep -q "id=\"summary\">2 policies on the same [0-9]* jobs; lowest mean job completion time: " && grep -q "<th>Mean wait to first start</th>" "$tmp/c.html"' "compare: the answer in words, columns by their labels"
"$strata" compare "$q" --policies fifo,backfill --format markdown >"$tmp/c.md" 2>/dev/null
ok '[ "$(sed -n 3p "$tmp/c.md")" = "$(unterm "$tmp/c.html" | sed -n "s/.*id=\"summary\">\([^<]*\)<.*/\1/p")" ]' "compare: markdown has the same summary"
ok '[ "$(grep -o "<polyline" "$tmp/c.html" | wc -l)" -eq 2 ]' "compare: one CDF line per policy"
# the headline names every policy that reads the best value, the ones within the error band of
# it, and what the fastest gives up (its preemptions, makespan, utilisation, energy); each policy
# of the nine is its own colour
"$strata" compare scenarios/examples/queue.yaml --format html >"$tmp/q9.html" 2>/dev/null
ok 'unterm "$tmp/q9.html" | grep -q "lowest mean job completion time: srtf and srsf (1.767 h; backfill and tiresias within the +49% error band of it); lowest makespan: sjf, gang, fair-share and priority (3.95 h;" && unterm "$tmp/q9.html" | grep -q "srtf and srsf pay for their lead with preemptions 3 against 0\."' "compare: the headline names ties and the policies within the error band"
# A GPU utilisation within the band of the highest is no cost (76.44% against 79.47% under a
# band reaching 33% below it), and a lead every other policy is within the band of is none (review: neighbours
# said 'sjf pays for its lead' of a lead inside the band).
ok '! unterm "$tmp/q9.html" | grep -q "GPU utilisation 76.44% against"' "compare: a utilisation within the band is no cost"
"$strata" compare scenarios/examples/neighbours.yaml --format markdown >"$tmp/nb.md" 2>/dev/null
ok 'grep -q "within the +49% error band" "$tmp/nb.md" && ! grep -q "pays for its lead" "$tmp/nb.md"' "compare: no lead inside the band"
ok '[ "$(grep -o "<polyline fill=\"none\" stroke=\"#[0-9A-F]*\"" "$tmp/q9.html" | sort -u | wc -l)" -eq 9 ]' "compare: nine policies, nine colours"
"$strata" compare scenarios/examples/philly-512gpu.yaml --policies fifo,sjf,srtf --format markdown >"$tmp/p3.md" 2>/dev/null
ok 'grep -q "lowest makespan: fifo and sjf (108.9 d);.* srtf pays for its lead with preemptions 121,513 against 0, makespan 132.9 d against 108.9 d, GPU utilisation 59.93% against 73.09% and cluster energy 4.856 TJ against 4.266 TJ (+14%)." "$tmp/p3.md"' "compare: the fastest policy's costs in the headline"
# The text groups counts and keeps 4 digits of a mean count, as the Markdown and HTML do: it
# said "82247 jobs, 82247 finished" under compare's "82,247 jobs", "121513" preemptions beside
# the Markdown's 121,513, and a fragmentation of 0.0003385 GPUs as "0.00".
"$strata" compare scenarios/examples/philly-512gpu.yaml --policies fifo,sjf,srtf >"$tmp/p3.txt" 2>/dev/null
ok 'grep -Eq "^fifo +82,247 .* 0 +0\.0003385 " "$tmp/p3.txt" && grep -Eq "^srtf +82,247 .* 121,513 +0\.03125 " "$tmp/p3.txt" && grep -Eq "^\| fifo +\| +82,247 \|.*\| +0\.0003385 \|" "$tmp/p3.md"' "compare: counts grouped, a mean count at 4 digits, in text and Markdown"
ok '"$strata" run scenarios/examples/philly-512gpu.yaml 2>/dev/null | grep -q "^scheduler: fifo, placement best-fit: 82,247 jobs, 82,247 finished$"' "run: the scheduler's counts grouped"
ok '"$strata" run scenarios/examples/serve-llama3-70b.yaml 2>/dev/null | grep -q "^  kv cache  690,128 tokens per replica (226.1 GB)$"' "run: a service's KV cache tokens grouped"
ok '"$strata" run scenarios/examples/serve-diurnal.yaml 2>/dev/null | grep -q "^  requests  4,739,757 over 1 d of a load curve"' "run: a service's requests grouped"
# a table of a column per figure is a wide one: compact, its first column held, under a line
# that says it scrolls, and printed on a landscape page of its own (cli.browser prints it)
ok 'grep -q "<p class=\"table-hint\">[0-9]* columns: scroll the table sideways" "$tmp/c.html" && grep -q "<div class=\"table-box wide\"><table id=\"table-policies\"" "$tmp/c.html" && grep -q "@page wide{size:landscape}" "$tmp/c.html"' "compare: the wide table says it scrolls, and prints landscape"
# compare with replicas: each cell the mean ± its sd (the JSON's spread), no "spread" column;
# the CDF says whose waits it draws. The checker refuses a changed spread.
cf=scenarios/examples/cluster-failures.yaml
"$strata" compare "$cf" --policies fifo,backfill --replicas 3 --format html >"$tmp/cr.html" 2>/dev/null
"$strata" compare "$cf" --policies fifo,backfill --replicas 3 --format json >"$tmp/cr.json" 2>/dev/null
ok '$check html "$tmp/cr.html" "$tmp/cr.json" queue-waits 20' "compare --replicas: html against json"
ok '! grep -q ">null<\|>spread<" "$tmp/cr.html" && grep -q "data-key=\"policies\[0\].mean_wait_s\"[^>]*>[^<]* ± [0-9.]* min<" "$tmp/cr.html"' "compare --replicas: mean ± sd cells"
ok 'grep -q "<title>Queue wait .*first of the 3 replicas</title>" "$tmp/cr.html"' "compare --replicas: the CDF is the first replica's"
sed -E '0,/ ± ([0-9][0-9.]*) min/s// ± 1\1 min/' "$tmp/cr.html" >"$tmp/bad5.html" # the first spread, wrong
ok '! cmp -s "$tmp/cr.html" "$tmp/bad5.html" && ! $check html "$tmp/bad5.html" "$tmp/cr.json" "" 1 >/dev/null' "checker: refuses a wrong spread"

# sweep: a curve per report column, the JSON's numbers.
set_a=('--set' 'workloads[finetune].global_batch=32,64,128' '--set' 'cluster.fabric.oversubscription=1,2')
"$strata" sweep scenarios/examples/quickstart.yaml "${set_a[@]}" --format html >"$tmp/s.html" 2>/dev/null
"$strata" sweep scenarios/examples/quickstart.yaml "${set_a[@]}" --format json >"$tmp/s.json" 2>/dev/null
ok '$check html "$tmp/s.html" "$tmp/s.json" sweep-curve-0,sweep-curve-1,sweep-curve-2 30 quickstart' "sweep: html against json"
ok 'unterm "$tmp/s.html" | grep -q "id=\"summary\">6 points, each a full run of the scenario: workloads\[finetune\].global_batch in 32, 64, 128; cluster.fabric.oversubscription in 1, 2. 6 of 6 ran"' "sweep: the answer in words"
"$strata" sweep scenarios/examples/quickstart.yaml "${set_a[@]}" -j 2 --format html >"$tmp/s2.html" 2>/dev/null
ok 'cmp -s "$tmp/s.html" "$tmp/s2.html"' "sweep: the same html whatever -j is"
# a sweep's curve: its y axis from zero (a 2% difference filled a plot cut to 16.95-17.3 s), named
# by the figure's label and unit, its line by its job and label (not total_usd and
# pretrain.cost.total_usd), ticks from 10,000 up grouped; a figure the same at every point is a
# sentence, not a flat line
cvb=scenarios/examples/cloud-vs-bare-metal.yaml
"$strata" sweep "$cvb" --set cost.delivery=bare-metal,cloud --columns step_time_s,memory_per_gpu_bytes,cost.total_usd --format html >"$tmp/cvb.html" 2>/dev/null
ok 'grep -q "transform=\"rotate(-90 [0-9 ]*)\">Cost (million USD)</text>" "$tmp/cvb.html" && grep -q "class=\"legend\">pretrain: Cost</text>" "$tmp/cvb.html" && grep -q "transform=\"rotate(-90 [0-9 ]*)\">Step time (s)</text>" "$tmp/cvb.html" && ! grep -q ">total_usd<\|>pretrain.cost.total_usd<" "$tmp/cvb.html"' "sweep: curves named by their figures' labels and units"
ok '[ "$(grep -o "<svg [^>]*id=\"sweep-curve-[0-9]*\".*</svg>" "$tmp/cvb.html" | grep -c "text-anchor=\"end\">0</text>")" -eq 2 ]' "sweep: every curve's y axis starts at zero"
ok 'grep -q "<p class=\"absent\">pretrain: Memory per GPU reads 42.82 GB at every point: no curve to draw.</p>" "$tmp/cvb.html"' "sweep: a figure the same at every point is a sentence"
"$strata" sweep scenarios/examples/quickstart.yaml --set 'workloads[finetune].global_batch=32,64' --columns tokens_per_s --format html >"$tmp/sv.html" 2>/dev/null
ok 'grep -q "text-anchor=\"end\">[0-9]*,000</text>" "$tmp/sv.html" && ! grep -q "text-anchor=\"end\">[0-9]\{5,\}</text>" "$tmp/sv.html"' "sweep: ticks from 10,000 up are grouped"
# sweep: a first axis of names (not numbers) is drawn at its values' places, ticked with them.
"$strata" sweep scenarios/examples/quickstart.yaml --set cluster.gpu=h100-sxm,b200,a100-sxm-80g \
    --format html >"$tmp/g.html" 2>/dev/null
curve0() { grep -o "id=\"sweep-curve-0\".*" "$tmp/g.html" | sed "s|</svg>.*||"; }
ok '[ "$(curve0 | grep -o "<circle cx=\"[0-9.]*\"" | sort -u | wc -l)" -eq 3 ]' "sweep: named values at three places"
ok '[ "$(curve0 | grep -o "middle\">[a-z0-9-]*<" | tr "\n" " ")" = "middle\">h100-sxm< middle\">b200< middle\">a100-sxm-80g< " ]' "sweep: ticks named by the values"

# size: the Pareto front, the JSON's numbers; CSV and Markdown tables.
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h --format html >"$tmp/z.html" 2>/dev/null
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h --format json >"$tmp/z.json" 2>/dev/null
ok '$check html "$tmp/z.html" "$tmp/z.json" size-pareto 100 quickstart' "size: html against json"
ok 'unterm "$tmp/z.html" | grep -q "id=\"summary\">Best for the gpu-hours goal: 8 GPUs (1 node, tp 1, pp 1, dp 8) train finetune in " && grep -q "<th>Time to train</th>" "$tmp/z.html"' "size: the answer in words, columns by their labels"
# the ranked table's 33 columns scroll in their box, each cell on one line: its text cells
# ("14.91 min to 32.94 min") were squeezed to their longest word, each row ~110 px tall; printed,
# they wrap again to fit the page (tests/cli/check_browser.sh measures the rows)
ok 'grep -q "<div class=\"table-box wide\"><table id=\"table-ranked\"" "$tmp/z.html" && grep -q "div.table-box{max-width:100%;overflow-x:auto;" "$tmp/z.html" && grep -q "div.table-box.wide td{white-space:nowrap}" "$tmp/z.html" && grep -q "@media print{.*div.table-box.wide td{white-space:normal}" "$tmp/z.html"' "size: the wide table scrolls, its cells unwrapped"
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h --format csv >"$tmp/z.csv" 2>/dev/null
ok 'head -1 "$tmp/z.csv" | grep -q "^table,rank,nodes,gpus" && [ "$(grep -c "^ranked," "$tmp/z.csv")" -eq 10 ] && grep -q "^front," "$tmp/z.csv"' "size: csv"
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h --format markdown >"$tmp/z.md" 2>/dev/null
ok 'grep -q "^## Pareto front" "$tmp/z.md" && grep -q "^| Rank | Nodes | GPUs | Tensor parallel" "$tmp/z.md"' "size: markdown"
ok '[ "$(sed -n 1p "$tmp/z.md")" = "# quickstart" ] && [ "$(sed -n 3p "$tmp/z.md")" = "$(unterm "$tmp/z.html" | sed -n "s/.*id=\"summary\">\([^<]*\)<.*/\1/p")" ]' "size: markdown opens with the name and the same summary"
"$strata" size scenarios/examples/quickstart.yaml --deadline 1h -o "$tmp/z.out" >"$tmp/z.txt" 2>/dev/null
ok 'cmp -s "$tmp/z.out" "$tmp/z.json" && grep -q "^Pareto front" "$tmp/z.txt"' "size: -o writes the JSON beside the text"
# A cluster of several GPU types: the summary and the meta line name each pool's type, not the
# first pool's alone.
"$strata" run scenarios/examples/mixed-h100-b200.yaml --format markdown >"$tmp/m.md" 2>/dev/null
ok 'sed -n 3p "$tmp/m.md" | grep -q "on 3072 GPUs (2048 h100-sxm, 1024 b200)" && grep -q "; 384 nodes in pools h100 (256 nodes, 2048 h100-sxm), b200 (128 nodes, 1024 b200)$" "$tmp/m.md"' "run: a mixed cluster's summary names each pool's type"

# size --existing: the answer in words says what to add to the pool kept, and that the first row
# is first by what it buys, not the cost goal's best (a row that buys more may cost less).
"$strata" size scenarios/examples/mixed-h100-b200.yaml --existing h100 --workload 70b-h100 --deadline 1.5h --format markdown >"$tmp/e.md" 2>/dev/null
ok 'sed -n 3p "$tmp/e.md" | grep -q "^First by what it buys (bought_usd), then by the cost goal: add 256 nodes of h100-sxm (70,140,000 USD) to the 256 nodes of pool h100: 4096 GPUs"' "size --existing: the summary says what to add"

# a job across pools: a capex part no pool's prices name is not priced (null), as a one-pool
# job's is, not 0
"$strata" run scenarios/examples/across-pools-h100-b200.yaml --format json >"$tmp/ap.json" 2>/dev/null
ok 'python3 -c "import json, sys; j = json.load(open(sys.argv[1]))[\"jobs\"]; sys.exit(not (j[0][\"cost\"][\"capex\"][\"optics_usd\"] is None and j[2][\"cost\"][\"capex\"][\"optics_usd\"] is None))" "$tmp/ap.json"' "run: an unpriced part across pools is null"

# rented storage: the daily flash wear is what the cost charges for it, none, in every format
"$strata" run scenarios/examples/finetune-70b-cloud.yaml --format json >"$tmp/fc.json" 2>/dev/null
ok 'python3 -c "import json, sys; j = json.load(open(sys.argv[1]))[\"jobs\"][0]; sys.exit(not (j[\"checkpoint\"][\"write_usd_per_day\"] == 0 == j[\"cost\"][\"breakdown\"][\"wear_usd\"]))" "$tmp/fc.json"' "run: a cloud job's daily flash wear is the cost's, none"
ok '"$strata" run scenarios/examples/finetune-70b-cloud.yaml 2>/dev/null | grep -q "write, no flash wear charged (rented storage)$"' "run: text says the wear is not charged"

# a preempted job's headline gives the span it ran, then its life alone with the band
ok '"$strata" run scenarios/examples/serve-beside-training.yaml --format markdown 2>/dev/null | sed -n 3p | grep -Eq "^Trains llama3-8b \(job pretrain\) in [0-9.]+ h, preempted 1 time \([0-9.]+ h alone, [0-9.]+ to [0-9.]+ h at 80%"' "run: the headline counts the preemption"

# with --replicas the headline's wall time is their mean, and the cost says which life it prices
ok '"$strata" run scenarios/examples/llama3-405b-16k-onprem.yaml --replicas 3 --format markdown 2>/dev/null | sed -n 3p | grep -Eq "^Trains llama3-405b \(job pretrain\) in [0-9.]+ d, the mean of 3 lives \(.*, costing [0-9,]+ USD in the first life \(optics, racks and cooling not priced\);"' "run: the headline leads with the replicas' mean"
# ... and names the first life's wall, the one the Jobs table and the text's life line hold; a
# training headline gives the plan's MFU and goodput (a review found neither in any summary)
"$strata" run scenarios/examples/llama3-405b-16k.yaml --replicas 3 --format markdown >"$tmp/l3.md" 2>/dev/null
"$strata" run scenarios/examples/llama3-405b-16k.yaml --replicas 3 >"$tmp/l3.txt" 2>/dev/null
first=$(sed -n 's/^  life .* steps: \([0-9.]* d\) wall.*/\1/p' "$tmp/l3.txt")
ok '[ -n "$first" ] && sed -n 3p "$tmp/l3.md" | grep -q "the mean of 3 lives (the first, in the tables: $first; .* on 16,384 h100-sxm GPUs (MFU 39.79%, mean goodput [0-9.]*%) at "' "run: the headline names the first life's wall, and MFU and goodput"
# an autoscaled service that misses its targets for want of replicas says how many its load asks
ok '"$strata" run scenarios/examples/serve-diurnal.yaml --format markdown 2>/dev/null | sed -n 3p | grep -q "latency targets missed (84.2% of requests within them: its load asks for up to 13.17 replicas at its peak, against the 8 its autoscaler may start)"' "run: a service short of replicas says how many its load asks for"

# a training job's headline gives its own cost, and the scenario's in all where a service beside
# it costs too (a user walk found the total beside pretrain's name, whose cost is 323.8)
for f in markdown html; do
    "$strata" run scenarios/examples/serve-h100-train-b200.yaml --format $f >"$tmp/sb.$f" 2>/dev/null
    ok 'grep -q "^\(<p [^>]*>\)\?Trains llama3-8b (job pretrain) in .*, costing 323.8 USD (343.3 USD in all; optics, racks and cooling not priced); service chat serves" "$tmp/sb.$f"' "run: $f headline gives the job's cost, the total in all"
done
ok '"$strata" run scenarios/examples/serve-h100-train-b200.yaml 2>/dev/null | grep -q "^  pretrain: 323.8 USD,"' "run: the text's pretrain cost is the headline's"

# a service's facility energy is its own figure, the one its energy cost prices, and counts in
# power.energy_j (it was absent, and power.energy_j 0 on a cluster that only serves)
"$strata" run scenarios/examples/serve-h100-train-b200.yaml --format json >"$tmp/sbe.json" 2>/dev/null
ok 'python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))
j = {x[\"name\"]: x for x in t[\"jobs\"]}
e = j[\"chat\"][\"power\"][\"energy_j\"]
usd = j[\"chat\"][\"cost\"][\"breakdown\"][\"energy_usd\"] / j[\"pretrain\"][\"cost\"][\"breakdown\"][\"energy_usd\"]
assert abs(usd - e / j[\"pretrain\"][\"power\"][\"energy_j\"]) < 1e-9 * usd, usd
assert abs(t[\"power\"][\"energy_j\"] - e - j[\"pretrain\"][\"power\"][\"energy_j\"]) < 1e-6 * e
" "$tmp/sbe.json"' "run: a service's energy_j is what its energy cost prices, in power.energy_j"
# a pool's NICs are stated where the pools' nodes differ (they move its step and its ports)
ok '"$strata" run scenarios/examples/mixed-h100-gb200.yaml 2>/dev/null | grep -q "gb200 (144 x 4 gb200 + 4 NICs, NVLink domains of 72"' "run: a pool's NICs in the text"
ok '"$strata" run scenarios/examples/mixed-h100-gb200.yaml --format html 2>/dev/null | grep -q "<h2 id=\"pools\">"' "run: html has the pools' tables"

# the markdown audit is a row per check, as the HTML's ("[6].limit | 2e+16" had no unit)
"$strata" run scenarios/examples/mixed-h100-gb200.yaml --format markdown >"$tmp/mx.md" 2>/dev/null
ok 'grep -q "^| Status | Level | Check | Message |$" "$tmp/mx.md" && grep -q "^| pass | silicon | full baseboard | 8 GPUs per node |$" "$tmp/mx.md" && ! grep -q "^| \\\[0\\\]\.level" "$tmp/mx.md"' "run: markdown audit has a row per check"
# the baseboard check names the pool whose node it reads, where the pools' nodes differ
sed 's/{ name: gb200, gpu: gb200, nodes: 144,/{ name: gb200, gpu: gb200, nodes: 144, gpus_per_node: 6, nvlink_domain: 72,/; s/^cluster:$/cluster:\n  node: { base_power: 2.5 kW }/' \
    scenarios/examples/mixed-h100-gb200.yaml >"$tmp/gpn6.yaml"
ok '"$strata" audit "$tmp/gpn6.yaml" 2>/dev/null | grep -q "full baseboard: pool .gb200.: 6 GPUs per node: not a full 4- or 8-GPU baseboard"' "audit: the baseboard check names its pool"
# the markdown audit lists the checks in the HTML's order: FAIL, then WARN, then the rest
"$strata" run "$tmp/gpn6.yaml" --format markdown 2>/dev/null | sed -n '/^## Pre-flight audit/,$p' |
    awk -F' [|] ' '/^[|] (pass|warn|fail) /{s = substr($1, 3); r = s == "fail" ? 0 : s == "warn" ? 1 : 2; if (r < last) bad = 1; last = r; n[s]++} END {exit !(bad == 0 && n["fail"] && n["warn"] && n["pass"])}'
md_order=$?
ok '[ "$md_order" -eq 0 ]' "run: markdown audit in the HTML's order"

# a walk as a new user: a service's replica stretches drew a queue-wait chart of 4 waits on a
# -4e-07 ms axis where the text says no job went through the queue; a tiny share read
# 5.651e-05%; the fabric's tiers read "spine 0.0%" of spine-core links a two-tier fabric lacks
"$strata" run scenarios/examples/serve-scale-to-zero.yaml --format html >"$tmp/stz.html" 2>/dev/null
ok '! grep -q "id=\"queue-waits\"" "$tmp/stz.html" && grep -q "No job went through the cluster run: no queue." "$tmp/stz.html"' "run: no waits chart of a service's replica stretches"
ok 'grep -q "| 0.000057% | jobs.*checkpoint.stall_fraction |$" "$tmp/mx.md" && ! grep -q "e-0[0-9]%" "$tmp/mx.md"' "run: a tiny share in decimals, not e-notation"
ok '"$strata" run scenarios/examples/allreduce-contention.yaml 2>/dev/null | grep -q "^  per tier NVLink [0-9.]*%, NIC-leaf [0-9.]*%, leaf-spine [0-9.]*%, spine-core [0-9.]*%, storage"' "run: the fabric's tiers named by their links"

# on a cluster of pools each pool's node price source is in every format, as the text lists them
# (a user walk found the JSON holding the first pool's alone and one "Node price source" row)
mp=scenarios/examples/mixed-h100-b200.yaml
"$strata" run $mp --format json >"$tmp/mp.json" 2>/dev/null
ok 'python3 -c "import json, sys; s = json.load(open(sys.argv[1]))[\"cost\"][\"sources\"]; p = s[\"pools\"]; sys.exit(not (\"node_price\" not in s and [x[\"name\"] for x in p] == [\"h100\", \"b200\"] and p[0][\"node_price\"].startswith(\"HGX H100\") and p[1][\"node_price\"].startswith(\"DGX B200\")))" "$tmp/mp.json"' "run: JSON has each pool's node price source"
"$strata" run $mp --format csv >"$tmp/mp.csv" 2>/dev/null
ok 'grep -q "^cost.sources.pools\[0\].node_price,\"HGX H100" "$tmp/mp.csv" && grep -q "^cost.sources.pools\[1\].node_price,\"DGX B200" "$tmp/mp.csv"' "run: CSV has each pool's node price source"
"$strata" run $mp --format markdown >"$tmp/mp.md" 2>/dev/null
ok 'grep -F "| cost.sources.pools\[0\].node_price |" "$tmp/mp.md" | grep -qF "| HGX H100" && grep -F "| cost.sources.pools\[1\].node_price |" "$tmp/mp.md" | grep -qF "| DGX B200"' "run: Markdown has each pool's node price source"
"$strata" run $mp --format html >"$tmp/mp.html" 2>/dev/null
ok '[ "$(grep -c "<td title=\"Node price source (JSON key cost.sources.pools\[[01]\].node_price)\">Node price source</td>" "$tmp/mp.html")" -eq 2 ] && grep -q "DGX B200 list" "$tmp/mp.html"' "run: HTML has each pool's node price source"

# words a reader uses: a yes/no for a boolean (CSV keeps true/false), a singular for one node
ok '"$strata" run scenarios/examples/preemption.yaml --format markdown 2>/dev/null | grep -q "; 1 node of h100-sxm$"' "run: one node, not 1 nodes"
ok '"$strata" run scenarios/examples/quickstart.yaml --format markdown 2>/dev/null | grep -qF "| Fits in memory | yes | jobs\[0\].fits |"' "run: a boolean reads yes or no"
ok '"$strata" run scenarios/examples/quickstart.yaml --format csv 2>/dev/null | grep -q "^jobs\[0\].fits,true$"' "run: CSV keeps the JSON's true"

# a chart of waits is ticked in the unit its largest wait reads best in: preemption.yaml's waits
# are 286-572 ms, once ticked 2e-05 h
ok '"$strata" run scenarios/examples/preemption.yaml --format html 2>/dev/null | grep -q "wait (milliseconds)"' "run: sub-second waits are charted in ms"

# The two energies cover different windows and say so: the cluster's (scheduler.energy_j) over
# the run to the horizon, the jobs' (power.energy_j) over their whole lives, which run past it
# (a user walk read 97.54 TJ of "the jobs' energy" against 72.24 TJ "at the facility" with
# nothing telling the windows apart); the HTML labels them alike.
"$strata" run scenarios/examples/llama3-405b-16k.yaml >"$tmp/e405.txt" 2>/dev/null
"$strata" run scenarios/examples/llama3-405b-16k.yaml --format html >"$tmp/e405.html" 2>/dev/null
ok 'grep -Eq "^  energy    [0-9.]+ TJ at the facility, the cluster.s over the run to the horizon \(54 d\):" "$tmp/e405.txt"' "run: the cluster's energy names its window"
ok 'grep -Eq ", the jobs. energy over their whole lives [0-9.]+ TJ \(they run past the horizon, where the cluster.s stops\)$" "$tmp/e405.txt"' "run: the jobs' energy names its window"
ok 'grep -q "Cluster energy over the run (makespan or horizon)" "$tmp/e405.html" && grep -q "Jobs&#39; energy over their whole lives (services&#39; over their spans)" "$tmp/e405.html"' "run: the HTML's labels name the windows"

# Each page ends with the terms it uses, and only those, each defined in one plain sentence and
# marked where the page first uses it (a VP met MFU, goodput, srtf, the power ramp and P99
# undefined): check_report.py terms holds every page to its own list (report/glossary.h).
"$strata" run scenarios/examples/serve-llama3-70b.yaml --format html >"$tmp/sv70.html" 2>/dev/null
ok '$check terms "$tmp/e405.html" mfu,hfu,goodput,bubble,ramp,swing,pue,ups,daly,young,persistent-mtbf,mtbf,tp,pp,dp,cp,fifo,pack,makespan ttft,tpot,kv-cache,pareto,srtf,cost-per-year' "run: the 405B page lists its terms, and only those"
ok '$check terms "$tmp/sv70.html" ttft,tpot,percentile,kv-cache,slo,tp mfu,bubble,goodput' "run: a service's page lists the serving terms"
ok '$check terms "$tmp/q9.html" fifo,backfill,sjf,srtf,srsf,gang,tiresias,fair-share,priority,pack,makespan,jct,percentile,fragmented,useful-util,preemption mfu,ttft' "compare: every policy of the page defined"
ok '$check terms "$tmp/z.html" pareto,tp,pp,dp,cost-per-year srtf,ttft' "size: the plan's terms defined"
ok '$check terms "$tmp/s.html" step,oversubscription ttft,srtf' "sweep: the axes' and columns' terms defined"
ok 'grep -q "id=\"summary\">Trains llama3-405b [^<]*(<a class=\"term\" href=\"#term-mfu\"><abbr title=\"The model&#39;s FLOPs per second over the GPUs&#39; dense peak at the training precision[^\"]*\">MFU</abbr></a> 39.79%, <a class=\"term\" href=\"#term-goodput\"><abbr title=\"The share of wall-clock time that advances training[^\"]*\">goodput</abbr></a>" "$tmp/e405.html" && grep -q "<dt id=\"term-ramp\">Power ramp</dt><dd>The fastest change in the facility&#39;s power draw, in watts per second" "$tmp/e405.html"' "run: the summary's MFU and goodput marked with their definitions, the power ramp defined"
ok '[ "$(grep -o "<section class=\"terms\" id=\"sec-terms\">" "$tmp/e405.html" | wc -l)" -eq 1 ] && grep -q "</dl>.</section>.</body>" <(tr "\n" . <"$tmp/e405.html")' "run: one Terms section, at the page's end"
ok 'grep -q "<td><a class=\"term\" href=\"#term-fifo\"><abbr title=\"A scheduling policy (first in, first out)[^\"]*\">fifo</abbr></a></td><td><a class=\"term\" href=\"#term-pack\">" "$tmp/q9.html"' "compare: the policy and placement cells marked"
# the yearly cost says it is a rate of the GPUs the job holds, not the job's cost (a VP read
# "Cost per year 44,100,000 USD/year" beside a 1.4 M USD job as its cost)
ok 'grep -q ">Cost per year</abbr></a> of its GPUs at this rate</td>" "$tmp/k.html" && grep -q "<dt id=\"term-cost-per-year\">Cost per year</dt><dd>The job&#39;s cost as a yearly rate" "$tmp/k.html"' "run: the yearly cost's row says what it is"
ok 'grep -q ">Cost per year</abbr></a> of its GPUs at this rate</th>" "$tmp/z.html"' "size: the yearly cost's column says what it is"

# Collective workloads report their iterations as progress when asked (a million iterations ran
# minutes without a word), ending at all of them; nothing on stderr otherwise.
STRATA_PROGRESS=always "$strata" run scenarios/examples/allreduce-contention.yaml >/dev/null 2>"$tmp/coll.err"
ok 'grep -q "^strata: collective iterations 6 of 6 (100%)" "$tmp/coll.err"' "run: collective iterations as progress"
"$strata" run scenarios/examples/allreduce-contention.yaml >/dev/null 2>"$tmp/coll.err"
ok '[ ! -s "$tmp/coll.err" ]' "run: no progress off a terminal"
# A headline cost that counts parts bought with no price at 0 says which (a walk read 14,810 USD
# as the bill where optics, racks and cooling were "not priced" only in the text's capex lines);
# a cloud run has no capex and says nothing.
"$strata" run scenarios/examples/mixed-h100-b200.yaml --format markdown >"$tmp/mxc.md" 2>/dev/null
ok 'sed -n 3p "$tmp/mxc.md" | grep -q "costing 14,810 USD (optics, racks and cooling not priced)"' "run: the headline cost names its unpriced parts"
"$strata" run scenarios/examples/finetune-70b-cloud.yaml --format markdown >"$tmp/qc.md" 2>/dev/null
ok 'sed -n 3p "$tmp/qc.md" | grep -q "costing [0-9,]* USD[;.]"' "run: a cloud cost has no unpriced parts"
# A term the plant does not model is left out, not reported as a measured 0 W: rack distribution
# losses without racks.distribution_resistance, the storage's loss without racks.storage.
"$strata" run scenarios/examples/llama3-405b-16k.yaml --format json >"$tmp/pl.json" 2>/dev/null
sed 's/^    nodes_per_rack: 2 /    distribution_resistance: 10 mohm\n    nodes_per_rack: 2 /' \
    scenarios/examples/llama3-405b-16k.yaml >"$tmp/pl-r.yaml"
"$strata" run "$tmp/pl-r.yaml" --format json >"$tmp/pl-r.json" 2>/dev/null
ok 'python3 - "$tmp/pl.json" "$tmp/pl-r.json" <<"PY"
import json, sys
a, b = (json.load(open(f))["power"] for f in sys.argv[1:])
for k in ("distribution_w", "storage_w"):
    assert k not in a["facility_peak"], k
assert "distribution_loss_w" not in a and "loss_w" not in a["racks"]
assert b["facility_peak"]["distribution_w"] > 0 and b["distribution_loss_w"] > 0 and b["racks"]["loss_w"] > 0
PY' "run: distribution losses absent where not modelled, present with a resistance"
# a service's cost is per million output tokens in its cost line, as its power line says (the
# cost line said "per million tokens" of the same 5.394 USD)
ok '"$strata" run scenarios/examples/serve-diurnal.yaml 2>/dev/null | grep -q "^  chat: [0-9,]* USD, 5.394 USD per million output tokens, "' "run: a service's cost per million output tokens"
# the ramp is one 1 ms sample's whole swing, an upper bound: 10.52 GW/s on a 20.6 MW site said
# bare read as a measured ramp
ok '"$strata" run scenarios/examples/llama3-405b-16k.yaml 2>/dev/null | grep -q "ramp 10.52 GW/s (its steepest 1 ms step: an upper bound)$"' "run: the ramp says it is an upper bound"
ok '"$strata" run scenarios/examples/llama3-405b-16k.yaml 2>/dev/null | grep -q "^  facility peak = IT [0-9.]* MW + transformers .*(distribution losses not modelled: no racks.distribution_resistance above 0)$"' "run: the text says distribution losses are not modelled"

echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# The HTML reports in a real browser (docs/guide/reports.md, "How it is tested"): the pages of run
# (a training job, a cluster trace, long names), compare, sweep and size, each rendered headless by
# Debian's chromium in a 1,280 px wide window. A page fails when it scrolls sideways (its
# document is wider than the window: a table or a name that does not fit the page) or when it
# has no summary (<p id="summary">, the answer in words). The parser checks of the same pages
# are cli.reports' (check_report.py); this is what a reader's browser makes of them.
# Printed to PDF, compare's wide table must keep its last columns on the page (pdftotext reads them).
# Usage: check_browser.sh STRATA SRC [SHOTS_DIR]  (SHOTS_DIR: also save a 1,280 px screenshot of
# each page there). Needs chromium and pdftotext (./build.sh test installs both; without them the
# test fails).
set -u
strata=$1
cd "$2" || exit 2
shots=${3:-}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "check_browser.sh: no chromium: install Debian's package 'chromium' (./build.sh test does)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
width=1280
n=0 fail=0
# A copy of the page with a script that writes the measurement onto the root element once the
# page has laid out: its scrolling width, the window's width and whether the summary is there.
# The report itself never holds a script (check_report.py refuses one); only this copy does.
# (No & in it: sed would read one as the matched text.)
probe='<script>window.addEventListener("load",function(){var d=document.documentElement,s=document.getElementById("summary");d.setAttribute("data-probe","scroll="+d.scrollWidth+" window="+window.innerWidth+" summary="+(s?(s.textContent.trim().length>0?1:0):0));});</script>'
chrome() { # args... : one headless run with no network, no profile, nothing kept
    local prof
    prof=$(mktemp -d "$tmp/prof.XXXXXX")
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$prof" "$@" 2>/dev/null
}
check_page() { # name file
    local name=$1 page=$2 probe_line scroll summary
    n=$((n + 1))
    if [ ! -s "$page" ]; then
        echo "FAIL $name: strata wrote no page"
        fail=$((fail + 1))
        return
    fi
    sed "s|</body>|$probe</body>|" "$page" >"$tmp/$name.probe.html"
    chrome --window-size=$width,900 --virtual-time-budget=5000 \
        --dump-dom "file://$tmp/$name.probe.html" >"$tmp/$name.dom"
    probe_line=$(grep -o 'data-probe="[^"]*"' "$tmp/$name.dom" | head -1)
    scroll=$(sed -n 's/.*scroll=\([0-9]*\).*/\1/p' <<<"$probe_line")
    summary=$(sed -n 's/.*summary=\([01]\).*/\1/p' <<<"$probe_line")
    if [ -z "$scroll" ]; then
        echo "FAIL $name: the browser gave no measurement"
        fail=$((fail + 1))
    elif [ "$scroll" -gt $width ]; then
        echo "FAIL $name: the page is $scroll px wide in a $width px window (it scrolls sideways)"
        fail=$((fail + 1))
    elif [ "$summary" != 1 ]; then
        echo "FAIL $name: no summary (<p id=\"summary\">) on the page"
        fail=$((fail + 1))
    else
        echo "ok   $name: $scroll px wide in a $width px window, summary present"
    fi
    if [ -n "$shots" ]; then
        mkdir -p "$shots"
        chrome --window-size=$width,2000 --virtual-time-budget=5000 \
            --screenshot="$shots/$name.png" "file://$page" >/dev/null
    fi
}
ex=scenarios/examples
"$strata" run $ex/llama3-405b-16k.yaml --format html >"$tmp/run-llama.html" 2>/dev/null
"$strata" run $ex/philly-512gpu.yaml --format html >"$tmp/run-philly.html" 2>/dev/null
"$strata" run $ex/serve-beside-training.yaml --format html >"$tmp/run-serve.html" 2>/dev/null
# the diurnal example's day shrunk to 24 minutes: the same page, a tenth of the run (ASan)
sed 's/ h, rate/ min, rate/' $ex/serve-diurnal.yaml >"$tmp/diurnal.yaml"
"$strata" run "$tmp/diurnal.yaml" --format html >"$tmp/run-diurnal.html" 2>/dev/null
"$strata" compare $ex/philly-512gpu.yaml --format html >"$tmp/compare-philly.html" 2>/dev/null
"$strata" sweep $ex/quickstart.yaml --set 'workloads[finetune].global_batch=32,64,128' \
    --set cluster.fabric.oversubscription=1,2 --format html >"$tmp/sweep-quickstart.html" 2>/dev/null
"$strata" size $ex/quickstart.yaml --deadline 1h --format html >"$tmp/size-quickstart.html" 2>/dev/null
# a service sized over two GPU types, with fewer requests (the same page)
sed 's/count: 2000/count: 400/' $ex/serve-llama3-70b.yaml >"$tmp/serve-small.yaml"
"$strata" size "$tmp/serve-small.yaml" --gpu-types h100-sxm,b200 --top 20 --format html \
    >"$tmp/size-serve.html" 2>/dev/null
# names longer than 300 bytes with no space to break at (cli.utf8's fixture): still no sideways
# scroll
"$strata" run tests/cli/utf8/names.yaml --format html >"$tmp/run-long-names.html" 2>/dev/null
for page in run-llama run-philly run-serve run-diurnal compare-philly sweep-quickstart \
    size-quickstart size-serve run-long-names; do
    check_page "$page" "$tmp/$page.html"
done
# A wide table's rows are one line tall: size's ranked table (33 columns) squeezed its text cells
# ("14.91 min to 32.94 min") to their longest word, and each row was 81 px (110 px at 40
# columns); its box scrolls sideways instead. The tallest body row of the table, at most 40 px.
rows_probe='<script>window.addEventListener("load",function(){var t=document.getElementById("table-ranked"),h=0;if(t)t.querySelectorAll("tbody tr").forEach(function(r){h=Math.max(h,r.getBoundingClientRect().height);});document.documentElement.setAttribute("data-rows","tallest="+Math.round(h));});</script>'
n=$((n + 1))
sed "s|</body>|$rows_probe</body>|" "$tmp/size-quickstart.html" >"$tmp/rows.probe.html"
tallest=$(chrome --window-size=$width,900 --virtual-time-budget=5000 \
    --dump-dom "file://$tmp/rows.probe.html" | sed -n 's/.*data-rows="tallest=\([0-9]*\)".*/\1/p' | head -1)
if [ -z "$tallest" ] || [ "$tallest" -eq 0 ] || [ "$tallest" -gt 40 ]; then
    echo "FAIL size-quickstart: the ranked table's tallest row is ${tallest:-unmeasured} px (at most 40)"
    fail=$((fail + 1))
else
    echo "ok   size-quickstart: the ranked table's rows are one line ($tallest px)"
fi
# Printed (--print-to-pdf, US Letter): a wide table keeps every column on the page, none cut off
# at its edge. Compare's table of policies, a column per figure, is the widest of fixed width:
# the number in each row's last three cells (Useful GPU utilisation, Cluster energy, ...) must be
# in the PDF's text (pdftotext).
check_print() { # name file table-id
    local name=$1 page=$2 table=$3 missing
    n=$((n + 1))
    chrome --no-pdf-header-footer --print-to-pdf="$tmp/$name.pdf" "file://$page" >/dev/null
    if ! pdftotext "$tmp/$name.pdf" "$tmp/$name.txt" 2>/dev/null; then
        echo "FAIL $name (print): no PDF, or no text read from it"
        fail=$((fail + 1))
        return
    fi
    missing=$(python3 - "$page" "$table" "$tmp/$name.txt" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
X = "{http://www.w3.org/1999/xhtml}"
root = ET.parse(sys.argv[1]).getroot()
text = "".join(open(sys.argv[3], encoding="utf-8").read().split())
want = []
for t in root.iter(X + "table"):
    if t.get("id") == sys.argv[2]:
        for tr in t.iter(X + "tr"):
            cells = ["".join(td.itertext()) for td in tr.findall(X + "td")]
            for c in cells[-3:]:
                m = re.match(r"[0-9][0-9,.]*", c)
                if m:
                    want.append(m.group(0))
missing = [w for w in want if w not in text]
print(" ".join(missing) if want else "(no numbers in table %s)" % sys.argv[2])
PY
    )
    if [ -n "$missing" ]; then
        echo "FAIL $name (print): the PDF lacks the table's last columns: $missing"
        fail=$((fail + 1))
    else
        echo "ok   $name (print): every row's last columns are on the printed page"
    fi
}
if ! command -v pdftotext >/dev/null; then
    echo "check_browser.sh: no pdftotext: install Debian's package 'poppler-utils' (./build.sh test does)"
    exit 1
fi
"$strata" compare $ex/philly-512gpu.yaml --policies fifo,sjf,srtf --format html \
    >"$tmp/compare-three.html" 2>/dev/null
check_print compare-three "$tmp/compare-three.html" table-policies
# The check itself fails on a page wider than the window and on a page without its summary.
shots=
sed 's|<body>|<body><div style="width:1500px">wide</div>|' "$tmp/run-llama.html" >"$tmp/wide.html"
before=$fail
check_page wide-copy "$tmp/wide.html" >"$tmp/wide.out"
if [ $fail -eq $before ]; then
    echo "FAIL checker: passes a page 1,500 px wide"
    fail=$((fail + 1))
else
    echo "ok   checker: refuses a page 1,500 px wide"
    fail=$before
fi
sed 's|id="summary"|id="other"|' "$tmp/run-llama.html" >"$tmp/nosum.html"
before=$fail
check_page no-summary-copy "$tmp/nosum.html" >"$tmp/nosum.out"
if [ $fail -eq $before ]; then
    echo "FAIL checker: passes a page without its summary"
    fail=$((fail + 1))
else
    echo "ok   checker: refuses a page without its summary"
    fail=$before
fi
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env python3
"""Check a report strata wrote against its JSON report, with a real parser.

  check_report.py html REPORT.html REPORT.json IDS MIN [NAME]
      The file must parse as XML (so it is well-formed, XHTML-compatible HTML5) with an XHTML
      <html> root; it must load nothing from outside (no script, link, img, iframe, object or
      embed element, no address with "://", no url() or @import in its style); every id of IDS
      (comma-separated) must be an inline <svg>; and every table cell with a data-key must hold
      the JSON report's value at that key as its data-value, exactly, and show it (its text, in
      the unit the docs' report tables give the key's row) within the 4 significant digits
      strata prints. At least MIN such cells. Its <title> and <h1> must be the scenario's name
      (NAME, or the JSON report's "scenario"), and the answer in words, <p id="summary"> with
      text, must come before the first <h2>.
  check_report.py terms REPORT.html IDS [ABSENT]
      The page's terms (report/glossary.h): it must end with its Terms section (<section
      id="sec-terms">, a <dl class="terms"> of <dt id="term-ID"> and <dd> pairs); every term
      listed there must be marked exactly once in the page (<a class="term" href="#term-ID">
      around an <abbr> whose title is the entry's definition), in its prose or its tables' text
      cells and headings, never in a number's cell, a chart or a heading, and every mark must
      have its entry. Each id of IDS (comma-separated) must be listed, and none of ABSENT: a
      page lists the terms it uses, and only those.
  check_report.py csv REPORT.csv REPORT.json
      Every key,value row must be the JSON report's leaf at that key, exactly (text that a
      spreadsheet would run as a formula with the single quote OWASP's rule puts before it), and
      every leaf must have its row.
  check_report.py utf8 FILE KIND [NAME...]
      FILE must be well-formed UTF-8 and parse as KIND (json: json.load; html: the XML parser
      above; csv: the csv module; markdown, text: no parse), and hold every NAME whole.
  check_report.py safe-csv FILE
      No cell of FILE may be one a spreadsheet runs as a formula (OWASP "CSV Injection"): a cell
      that begins with = + - @, a tab or a carriage return must be a JSON number.
  check_report.py safe-md FILE
      No text of FILE may become HTML, a link or a code span: no '<', no '[' or '`' without a
      backslash before it, and every table row with as many cells (unescaped '|') as its header.
Exit 0 when every check passes, 1 (saying what failed) otherwise."""
import csv
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
UNITS = {
    "": 1, "%": 0.01, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "min": 60, "h": 3600,
    "d": 86400, "y": 365 * 86400, "B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
    "PB": 1e15, "EB": 1e18, "W": 1, "kW": 1e3, "MW": 1e6, "GW": 1e9, "J": 1, "kJ": 1e3,
    "MJ": 1e6, "GJ": 1e9, "TJ": 1e12, "PJ": 1e15, "Wh": 3600, "kWh": 3.6e6, "MWh": 3.6e9, "GWh": 3.6e12, "A": 1,
    "mA": 1e-3, "kA": 1e3, "C": 1, "Hz": 1, "USD": 1, "m3/s": 1, "L/s": 1e-3, "mL/s": 1e-6,
    "USD per million tokens": 1e-6,
}


def resolve(node, rest):
    """The value at path rest under node; object keys may hold dots and brackets themselves."""
    if rest == "":
        return node
    if isinstance(node, list):
        m = re.match(r"\[(\d+)\]\.?", rest)
        return resolve(node[int(m.group(1))], rest[m.end():]) if m else KeyError(rest)
    for key in sorted(node, key=len, reverse=True):
        if rest == key:
            return node[key]
        if rest.startswith(key + ".") or rest.startswith(key + "["):
            tail = rest[len(key):]
            return resolve(node[key], tail[1:] if tail[0] == "." else tail)
    raise KeyError(rest)


def ungroup(text):
    """A cell's text without the commas that set a whole number's thousands apart (the reports
    show 16,384 from 10,000 up)."""
    return re.sub(r"(?<=[0-9]),(?=[0-9]{3}(?:[^0-9]|$))", "", text.strip())


def shown(text):
    """The number a cell shows, in base units (None when it shows none)."""
    m = re.match(r"^(-?[0-9.]+(?:e[+-]?[0-9]+)?) ?(.*)$", ungroup(text))
    if not m:
        return None
    unit = m.group(2)
    for per in ("/s", "/hour", "/day", "/year"):  # rates print as their quantity per period
        if unit.endswith(per) and unit[: -len(per)] in UNITS:
            unit = unit[: -len(per)]
    if unit not in UNITS:
        raise ValueError("unknown unit in %r" % text)
    return float(m.group(1)) * UNITS[unit]


TIME = {"s", "ms", "us", "ns", "min", "h", "d", "y"}
BYTES = {"B", "kB", "MB", "GB", "TB", "PB", "EB"}
# The units a reader may see for each unit the docs name (the report's schema: each figure's row
# in report/figures_table.c has its line, with its unit, in the report section of
# docs/guide/scenario-reference.md, and unit.figures checks they agree), so that a value shown in
# the wrong unit fails even when its number is right.
SHOWN = {
    "time": TIME, "bytes": BYTES, "bandwidth": {u + "/s" for u in BYTES},
    "power": {"W", "kW", "MW", "GW"}, "ramp": {"W/s", "kW/s", "MW/s", "GW/s"},
    "energy": {"J", "kJ", "MJ", "GJ", "TJ", "PJ", "Wh", "kWh", "MWh", "GWh"}, "current": {"A", "mA", "kA"},
    "money": {"USD"}, "temperature": {"C"}, "share": {"%"}, "bytes/day": {u + "/day" for u in BYTES},
    "m3/s": {"m3/s", "L/s", "mL/s"}, "per second": {"/s"}, "Hz": {"Hz"}, "number": {""},
    "USD/token": {"USD per million tokens"},
    "USD/hour": {"USD/hour"}, "USD/day": {"USD/day"}, "USD/year": {"USD/year"},
}
STATS = {"mean", "ci95_lo", "ci95_hi", "p10", "p50", "p90", "p99"}
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "guide",
                    "scenario-reference.md")


def schema():
    """The documented unit of every row, per document: {doc: {path: unit}}."""
    rows, doc = {}, None
    for line in open(DOCS, encoding="utf-8"):
        m = re.match(r"<!-- figures: ([a-z]+) -->", line)
        if m:
            doc = rows.setdefault(m.group(1), {})
            continue
        m = re.match(r"\| `([^`]+)` \| ([^|]+?) \|", line)
        if m and doc is not None:
            doc[m.group(1)] = m.group(2)
        elif not line.startswith("|"):
            doc = None
    return rows


SCHEMA = schema()


def kind_of(report):
    """Which document a JSON report is."""
    return ("compare" if "policies" in report else "sweep" if "points" in report
            else "size" if "ranked" in report or "serving" in report else "run")


def unit_of(kind, key, report):
    """The documented unit of the leaf at key, or None where it has no row (a sweep's --set
    column, the scenario's own key)."""
    rows = SCHEMA[kind]
    p = re.sub(r"\[\d+\]", "[]", key)
    if kind == "compare":
        p = p.replace("policies[].spread.", "policies[].")
    if kind == "size":
        p = re.sub(r"^front\[\]", "ranked[]", p)
    if p in rows:
        return rows[p]
    head, _, last = p.rpartition(".")
    if head in rows and (last in STATS or head == "fabric.utilization_by_level"):
        return rows[head]
    if kind == "sweep" and p.startswith("points[]."):
        col = p[len("points[]."):]
        for i, c in enumerate(col):
            if c == "." and "jobs[]." + col[i + 1:] in SCHEMA["run"]:
                return SCHEMA["run"]["jobs[]." + col[i + 1:]]
        return None
    raise KeyError("%s: no row in the %s document's table of the docs" % (key, kind))


def unit_ok(kind, key, text, report):
    """Whether the unit text shows suits the key's documented unit (True for a key of no row)."""
    m = re.match(r"^-?[0-9.]+(?:e[+-]?[0-9]+)? ?(.*)$", ungroup(text))
    if not m:
        return True
    unit = unit_of(kind, key, report)
    return unit is None or m.group(1) in SHOWN.get(unit, ())


def check_head(root, name):
    """The title and first heading are the scenario's name; the summary comes before any <h2>."""
    fails = []
    title = root.find(XHTML + "head/" + XHTML + "title")
    h1 = root.find(XHTML + "body/" + XHTML + "h1")
    for what, el in (("<title>", title), ("<h1>", h1)):
        text = "".join(el.itertext()) if el is not None else None
        if name is None:
            fails.append("no scenario name to check the %s against" % what)
        elif text != name:
            fails.append("%s is %r, not the scenario's name %r" % (what, text, name))
    summary = None
    for el in root.find(XHTML + "body"):
        if el.tag == XHTML + "h2":
            break
        if el.tag == XHTML + "p" and el.attrib.get("id") == "summary":
            summary = "".join(el.itertext()).strip()
    if not summary:
        fails.append("no summary (<p id=\"summary\"> with text) before the first <h2>")
    return fails


def check_html(path, json_path, ids, least, name=None):
    fails = []
    report = json.load(open(json_path))
    kind = kind_of(report)
    root = ET.parse(path).getroot()
    if root.tag != XHTML + "html":
        fails.append("the root is %s, not an XHTML <html>" % root.tag)
    else:
        fails += check_head(root, name if name is not None else report.get("scenario"))
    svg_ids = set()
    cells = 0
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag in ("script", "link", "img", "iframe", "object", "embed"):
            fails.append("an external or scripted element <%s>" % tag)
        for k, v in el.attrib.items():
            if "://" in v and not (k == "xmlns" or v.startswith("http://www.w3.org/")):
                fails.append("an address in %s=%r" % (k, v))
        if tag == "style" and ("url(" in (el.text or "") or "@import" in (el.text or "")):
            fails.append("the style loads something")
        if el.tag == SVG + "svg" and "id" in el.attrib:
            svg_ids.add(el.attrib["id"])
        if tag == "td" and "data-key" in el.attrib:
            cells += 1
            key, exact, text = el.attrib["data-key"], el.attrib["data-value"], el.text or ""
            try:
                want = resolve(report, key)
            except (KeyError, IndexError, AttributeError):
                fails.append("%s: no such key in the JSON report" % key)
                continue
            if float(exact) != want:
                fails.append("%s: data-value %s, the JSON has %r" % (key, exact, want))
            # "MEAN ± SD" (compare with replicas): the SD is the JSON's PARENT.spread.LAST
            text, _, sd_text = text.partition(" ± ")
            if sd_text:
                head, _, last = key.rpartition(".")
                try:
                    sd = resolve(report, head + ".spread." + last)
                except (KeyError, IndexError, AttributeError):
                    fails.append("%s: shows a spread the JSON does not have" % key)
                    continue
                try:
                    unit_good = unit_ok(kind, key, sd_text, report)
                except KeyError as e:
                    fails.append(str(e.args[0]))
                    continue
                if not unit_good or abs(shown(sd_text) - sd) > 5.1e-4 * abs(sd) + 1e-12:
                    fails.append("%s: shows the spread %r, the JSON has %r" % (key, sd_text, sd))
            try:
                if not unit_ok(kind, key, text, report):
                    fails.append("%s: shows %r, not in its documented unit" % (key, text))
            except KeyError as e:
                fails.append(str(e.args[0]))
            seen = shown(text)
            if seen is not None and abs(seen - want) > 5.1e-4 * abs(want) + 1e-12:
                fails.append("%s: shows %r, the JSON has %r" % (key, text, want))
    for i in ids:
        if i not in svg_ids:
            fails.append("no chart <svg id=%r> (charts: %s)" % (i, ", ".join(sorted(svg_ids))))
    if cells < least:
        fails.append("%d numbers checked, expected at least %d" % (cells, least))
    return fails, "%d charts, %d numbers match the JSON" % (len(svg_ids), cells)


def check_terms(path, want, absent):
    root = ET.parse(path).getroot()
    fails = []
    body = root.find(XHTML + "body")
    kids = list(body) if body is not None else []
    if not kids or kids[-1].tag != XHTML + "section" or kids[-1].get("id") != "sec-terms":
        fails.append("the page does not end with its Terms section")
    parent = {c: p for p in root.iter() for c in p}
    entries = {}
    for dl in root.iter(XHTML + "dl"):
        if dl.get("class") != "terms":
            continue
        items = list(dl)
        if len(items) % 2 or any(dt.tag != XHTML + "dt" or dd.tag != XHTML + "dd"
                                 for dt, dd in zip(items[::2], items[1::2])):
            fails.append("the Terms list is not <dt>, <dd> pairs")
            continue
        for dt, dd in zip(items[::2], items[1::2]):
            if dt.get("id", "") in entries:
                fails.append("%s listed twice" % dt.get("id"))
            entries[dt.get("id", "")] = "".join(dd.itertext())
    marks = {}
    for a in root.iter(XHTML + "a"):
        if a.get("class") != "term":
            continue
        tid, abbr = a.get("href", "")[1:], a.find(XHTML + "abbr")
        if abbr is None or not (abbr.text or "").strip():
            fails.append("%s: a mark without its words in an <abbr>" % tid)
            continue
        if tid in marks:
            fails.append("%s marked twice (%r, %r)" % (tid, marks[tid], abbr.text))
        marks[tid] = abbr.text
        if tid not in entries:
            fails.append("%s (%r) marked, but not in the Terms section" % (tid, abbr.text))
        elif abbr.get("title") != entries[tid]:
            fails.append("%s: its mark's title is not its entry's definition" % tid)
        el = a
        while el in parent:
            el = parent[el]
            tag = el.tag.split("}")[-1]
            if tag in ("svg", "h1", "h2", "h3", "title") or (tag == "td" and "data-key" in el.attrib):
                fails.append("%s marked inside a <%s>" % (tid, tag))
    fails += ["%s listed, but marked nowhere" % t for t in entries if t not in marks]
    fails += ["no entry for %r" % w for w in want if "term-" + w not in entries]
    fails += ["an entry for %r, which the page does not use" % w for w in absent
              if "term-" + w in entries]
    return fails, "%d terms, each marked once" % len(entries)


def leaves(node, prefix, out):
    if isinstance(node, dict):
        for k, v in node.items():
            leaves(v, prefix + ("." if prefix else "") + k, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            leaves(v, "%s[%d]" % (prefix, i), out)
    else:
        out[prefix] = node


JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def runs_as_formula(cell):
    """Whether a spreadsheet would run the cell: OWASP's first characters, unless a number."""
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not JSON_NUMBER.fullmatch(cell)


def as_written(text):
    """A text cell as strata's CSV writes it (report/leaves.c)."""
    return "'" + text if runs_as_formula(text) else text


def check_csv(path, json_path):
    want = {}
    leaves(json.load(open(json_path)), "", want)
    rows = list(csv.reader(open(path, newline="")))
    fails = [] if rows and rows[0] == ["key", "value"] else ["no key,value header"]
    got = {}
    for key, value in rows[1:]:
        got[key] = value
        w = want.get(key, KeyError)
        if w is KeyError:
            fails.append("%s: not in the JSON report" % key)
        elif isinstance(w, bool) or w is None or isinstance(w, str):
            if value != as_written({True: "true", False: "false", None: "null"}.get(w, w)):
                fails.append("%s: %r, the JSON has %r" % (key, value, w))
        elif float(value) != w:
            fails.append("%s: %r, the JSON has %r" % (key, value, w))
    fails += ["%s: missing" % k for k in want if k not in got]
    return fails, "%d rows match the JSON" % len(got)


def check_utf8(path, kind, names):
    try:
        text = open(path, encoding="utf-8", errors="strict", newline="").read()
    except UnicodeDecodeError as e:
        return ["not UTF-8: %s" % e], ""
    fails = []
    try:
        if kind == "json":
            json.loads(text)
        elif kind == "html":
            ET.fromstring(text)
        elif kind == "csv":
            list(csv.reader(text.splitlines()))
        elif kind not in ("markdown", "text"):
            return ["unknown kind %r" % kind], ""
    except (ValueError, ET.ParseError, csv.Error) as e:
        fails.append("does not parse as %s: %s" % (kind, e))
    fails += ["does not hold %r whole" % n for n in names if n not in text]
    return fails, "UTF-8 %s holding %d names whole" % (kind, len(names))


def check_safe_csv(path):
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    fails = ["row %d: %r would run as a formula" % (i + 1, c)
             for i, row in enumerate(rows) for c in row if runs_as_formula(c)]
    return fails, "%d rows, no cell a spreadsheet runs" % len(rows)


def unescaped(line, ch):
    """The offsets of ch in line without an odd run of backslashes before it."""
    at = []
    for i, c in enumerate(line):
        k = i
        while k > 0 and line[k - 1] == "\\":
            k -= 1
        if c == ch and (i - k) % 2 == 0:
            at.append(i)
    return at


def check_safe_md(path):
    fails, head = [], None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if "<" in line:
            fails.append("line %d: raw '<' (HTML or an autolink)" % n)
        for ch in "[`":
            if unescaped(line, ch):
                fails.append("line %d: an unescaped %r" % (n, ch))
        if not line.startswith("|"):
            head = None
            continue
        cells = len(unescaped(line, "|"))
        if head is None:
            head = cells
        elif cells != head:
            fails.append("line %d: %d cell bounds, its header %d" % (n, cells, head))
    return fails, "no HTML, link or code span; every table row whole"


def main(argv):
    if len(argv) >= 6 and argv[1] == "html":
        fails, summary = check_html(argv[2], argv[3], [i for i in argv[4].split(",") if i],
                                    int(argv[5]), argv[6] if len(argv) > 6 else None)
    elif len(argv) in (4, 5) and argv[1] == "terms":
        fails, summary = check_terms(argv[2], [i for i in argv[3].split(",") if i],
                                     [i for i in (argv[4] if len(argv) > 4 else "").split(",") if i])
    elif len(argv) == 4 and argv[1] == "csv":
        fails, summary = check_csv(argv[2], argv[3])
    elif len(argv) >= 4 and argv[1] == "utf8":
        fails, summary = check_utf8(argv[2], argv[3], argv[4:])
    elif len(argv) == 3 and argv[1] == "safe-csv":
        fails, summary = check_safe_csv(argv[2])
    elif len(argv) == 3 and argv[1] == "safe-md":
        fails, summary = check_safe_md(argv[2])
    else:
        print(__doc__)
        return 2
    for f in fails[:20]:
        print("%s: %s" % (argv[2], f))
    print("%s: %s" % (argv[2], summary if not fails else "%d failures" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

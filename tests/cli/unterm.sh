#!/usr/bin/env bash
# An HTML report with the marks of its terms' first uses taken off (report/glossary.h: the term's
# words inside <a class="term" href="#term-ID"><abbr title="...">...</abbr></a>): the words a
# reader sees, for the tests that check a page's sentences (its summary) as text.
# Usage: unterm.sh FILE.html  (writes it to stdout)
exec sed -E 's|<a class="term" href="#term-[a-z0-9-]*"><abbr title="[^"]*">([^<]*)</abbr></a>|\1|g' "$1"

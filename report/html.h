/* A self-contained HTML document: one file with its style inline and no external resource (no
 * script, font, image or stylesheet to fetch), so it opens offline. The markup is HTML5 that is
 * also well-formed XML (XHTML-compatible: every element closed, attributes quoted, text escaped),
 * so an XML parser can check it. Charts are inline SVG (svg.h), written between the calls. */
#ifndef ST_REPORT_HTML_H
#define ST_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/* The doctype, head (title, inline style) and the body's first heading. From here to
 * st_html_end the text of the summary, the paragraphs, the tables' headings and the text cells
 * written to out marks the first use on the page of each term of report/glossary.h (an <abbr>
 * with its definition, linked to its entry); headings and numbers' cells are never marked. */
void st_html_begin(FILE *out, const char *title);

/* The Terms section (the terms the page marked, and only those; none: no section), then close
 * the body and the document. */
void st_html_end(FILE *out);

/* <hN id="id">text</hN>, level 2 or 3; id may be NULL. */
void st_html_heading(FILE *out, int level, const char *id, const char *text);

/* A paragraph of text, with class cls (NULL: none). */
void st_html_para(FILE *out, const char *cls, const char *text);

/* A <section id="id" class="chart-box"> holding one chart, or the reason it is absent; close it
 * with st_html_section_end. */
void st_html_section(FILE *out, const char *id);
void st_html_section_end(FILE *out);

/* The answer in words, first on the page: <p id="summary" class="summary">text</p>. */
void st_html_summary(FILE *out, const char *text);

/* A table with id and column headings heads[0..n), inside a box of its own that scrolls
 * sideways when the table is wider than the page (the page itself never does). A table of
 * ST_HTML_WIDE columns or more is a wide one: set compact, under a line that says it scrolls
 * (on screen only), its first column held in view; printed, it has a landscape page of its
 * own and a fixed share of the page's width a column, so no column is lost past the edge. */
#define ST_HTML_WIDE 12

void st_html_table_begin(FILE *out, const char *id, const char *const *heads, size_t n);
void st_html_row_begin(FILE *out);
void st_html_row_end(FILE *out);
/* A row of class cls ("fail", "warn": the style marks it). */
void st_html_row_begin_class(FILE *out, const char *cls);
void st_html_table_end(FILE *out);

/* A text cell. */
void st_html_cell(FILE *out, const char *text);

/* A text cell of class cls and tooltip title (each may be NULL). */
void st_html_cell_class(FILE *out, const char *cls, const char *title, const char *text);

/* A number's cell: text is what a reader sees (units, rounding); key names the value in the
 * matching JSON report and exact is its JSON text there, kept as data-key and data-value so a
 * program (and the tests) can check the two agree. */
void st_html_cell_num(FILE *out, const char *key, const char *exact, const char *text);
/* The same, with a tooltip naming the figure in words, name (its label: "srtf: Makespan"), so
 * that a cell of a wide table, its heading scrolled away, still says what it is. */
void st_html_cell_num_named(FILE *out, const char *name, const char *key, const char *exact,
                            const char *text);

#endif

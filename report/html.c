/* The HTML document writer (html.h). HTML Living Standard (WHATWG), "The XML syntax" and
 * "Writing HTML documents": a document written as below parses the same as HTML and as XML. */
#include "report/html.h"

#include <string.h>

#include "report/glossary.h"
#include "report/xml.h"

/* The page being written, between st_html_begin and st_html_end: its stream and the terms it
 * has marked (glossary.h). Text written to that stream by the summary, a paragraph, a table's
 * headings or a text cell marks each term's first use; st_html_end lists the terms used. One
 * page at a time per thread; text written to any other stream is only escaped. */
static _Thread_local struct {
    FILE *out;
    st_glossary g;
} page;

/* Text of the page's prose: escaped, and its terms' first uses marked. */
static void prose(FILE *out, const char *s)
{
    if (out && out == page.out)
        st_glossary_text(&page.g, out, s);
    else
        st_xml_text(out, s);
}

/* System fonts only: nothing to download. */
/* System fonts only: nothing to download. The page is at most 1,140 px of text: a table wider than
 * that scrolls inside its own box (div.table-box), never the page, and a long word (a name
 * without spaces) breaks where it must, so a 1,280 px window never scrolls sideways
 * (tests/cli/check_browser.sh measures it in a real browser). */
static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "margin:24px auto;max-width:1140px;color:#1a1a1a;line-height:1.4;padding:0 12px;"
    "overflow-wrap:break-word}"
    "h1{font-size:1.6em;margin-bottom:4px}h2{margin-top:32px;border-bottom:1px solid #ccc}"
    "p.meta{color:#555;margin-top:0}p.absent{color:#777;font-style:italic}"
    "p.summary{font-size:1.15em;background:#f4f7fb;border-left:4px solid #36c;padding:10px 14px}"
    "div.table-box{max-width:100%;overflow-x:auto;margin:8px 0 16px}"
    "table{border-collapse:collapse;font-size:0.92em}"
    "th,td{border:1px solid #d0d0d0;padding:3px 8px;text-align:left;vertical-align:top}"
    "th{background:#f0f3f7;overflow-wrap:normal;word-break:normal}"
    "td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}"
    "tr:nth-child(even) td{background:#fafafa}"
    "tr.fail td{background:#fde8e8}tr.warn td{background:#fff6dd}"
    "td.status{font-weight:600;white-space:nowrap}tr.fail td.status{color:#b00020}"
    "tr.warn td.status{color:#8a5a00}tr.pass td.status{color:#2e7d32}"
    "section.chart-box{margin:12px 0 20px}"
    "svg.chart{display:block;max-width:100%;height:auto;border:1px solid #e2e2e2}"
    "svg.chart text{font-size:11px;fill:#333}svg.chart text.title{font-size:14px;"
    "font-weight:600}svg.chart text.label{font-size:12px}"
    "svg.chart line.grid{stroke:#e6e6e6;stroke-width:1}"
    "svg.chart rect.frame{fill:none;stroke:#999;stroke-width:1}"
    /* A wide table (ST_HTML_WIDE columns or more): compact, its first column held in view as
     * it scrolls, under a line that says it scrolls; printed, on a landscape page of its own at
     * a fixed share of the page a column, so that no column is cut off at the page's edge. */
    "div.table-box.wide table{font-size:0.85em}"
    "div.table-box.wide th,div.table-box.wide td{padding:2px 5px}"
    /* its cells on one line each: a text cell of a 40-column table ("14.91 min to 32.94 min",
     * "spine-leaf") was squeezed to its longest word and wrapped, each row ~110 px tall; the box
     * scrolls sideways instead */
    "div.table-box.wide td{white-space:nowrap}"
    "div.table-box.wide tr>:first-child{position:sticky;left:0;z-index:1;background:#fff;"
    "box-shadow:inset -1px 0 0 #999}"
    "div.table-box.wide th:first-child{background:#f0f3f7}"
    "div.table-box.wide tr:nth-child(even) td:first-child{background:#fafafa}"
    "p.table-hint{color:#555;font-size:0.9em;margin:8px 0 0}"
    /* The Terms section (glossary.h), and a term's first use: dotted, its definition on hover,
     * a link to its entry; printed, the terms' column narrower. */
    "a.term{color:inherit;text-decoration:none}"
    "abbr[title]{text-decoration:underline dotted #777;cursor:help}"
    "dl.terms{display:grid;grid-template-columns:fit-content(17em) 1fr;gap:6px 18px;"
    "margin:8px 0 24px}"
    "dl.terms dt{font-weight:600}dl.terms dd{margin:0}"
    "dl.terms dt:target,dl.terms dt:target+dd{background:#fff6dd}"
    "@page wide{size:landscape}"
    "@media print{svg.chart{break-inside:avoid}div.table-box{overflow:visible}"
    "table{font-size:8pt}td.num{white-space:normal}p.table-hint{display:none}"
    "div.table-box.wide{page:wide}"
    "div.table-box.wide table{font-size:7pt;width:100%;table-layout:fixed}"
    "div.table-box.wide th,div.table-box.wide td{padding:1px 3px;overflow-wrap:anywhere}"
    "div.table-box.wide td{white-space:normal}" /* printed, the page's width is all there is */
    "div.table-box.wide tr>:first-child{position:static;box-shadow:none}"
    "dl.terms{grid-template-columns:fit-content(12em) 1fr;font-size:9pt}"
    "dl.terms dt,dl.terms dd{break-inside:avoid}}";

void st_html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width\"/>\n"
          "<title>",
          out);
    st_xml_text(out, title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
    st_xml_text(out, title);
    fputs("</h1>\n", out);
    page.out = out;
    memset(&page.g, 0, sizeof page.g);
}

void st_html_end(FILE *out)
{
    if (out == page.out) {
        st_glossary_section(&page.g, out);
        page.out = NULL;
    }
    fputs("</body>\n</html>\n", out);
}

void st_html_heading(FILE *out, int level, const char *id, const char *text)
{
    level = level < 2 ? 2 : level > 3 ? 3 : level;
    fprintf(out, "<h%d", level);
    if (id) {
        fputs(" id=\"", out);
        st_xml_text(out, id);
        fputc('"', out);
    }
    fputc('>', out);
    st_xml_text(out, text);
    fprintf(out, "</h%d>\n", level);
}

void st_html_para(FILE *out, const char *cls, const char *text)
{
    fputs("<p", out);
    if (cls) {
        fputs(" class=\"", out);
        st_xml_text(out, cls);
        fputc('"', out);
    }
    fputc('>', out);
    prose(out, text);
    fputs("</p>\n", out);
}

void st_html_section(FILE *out, const char *id)
{
    fputs("<section class=\"chart-box\" id=\"", out);
    st_xml_text(out, id);
    fputs("\">\n", out);
}

void st_html_section_end(FILE *out)
{
    fputs("</section>\n", out);
}

void st_html_summary(FILE *out, const char *text)
{
    fputs("<p class=\"summary\" id=\"summary\">", out);
    prose(out, text);
    fputs("</p>\n", out);
}

void st_html_table_begin(FILE *out, const char *id, const char *const *heads, size_t n)
{
    if (n >= ST_HTML_WIDE)
        fprintf(out,
                "<p class=\"table-hint\">%zu columns: scroll the table sideways for those past "
                "its right edge; its first column stays in view.</p>\n"
                "<div class=\"table-box wide\"><table",
                n);
    else
        fputs("<div class=\"table-box\"><table", out);
    if (id) {
        fputs(" id=\"", out);
        st_xml_text(out, id);
        fputc('"', out);
    }
    fputs("><thead><tr>", out);
    for (size_t i = 0; i < n; i++) {
        fputs("<th>", out);
        prose(out, heads[i]);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
}

void st_html_row_begin(FILE *out)
{
    fputs("<tr>", out);
}

void st_html_row_begin_class(FILE *out, const char *cls)
{
    fputs("<tr class=\"", out);
    st_xml_text(out, cls);
    fputs("\">", out);
}

void st_html_row_end(FILE *out)
{
    fputs("</tr>\n", out);
}

void st_html_table_end(FILE *out)
{
    fputs("</tbody></table></div>\n", out);
}

void st_html_cell(FILE *out, const char *text)
{
    fputs("<td>", out);
    prose(out, text);
    fputs("</td>", out);
}

void st_html_cell_class(FILE *out, const char *cls, const char *title, const char *text)
{
    fputs("<td", out);
    if (cls) {
        fputs(" class=\"", out);
        st_xml_text(out, cls);
        fputc('"', out);
    }
    if (title) {
        fputs(" title=\"", out);
        st_xml_text(out, title);
        fputc('"', out);
    }
    fputc('>', out);
    prose(out, text);
    fputs("</td>", out);
}

void st_html_cell_num_named(FILE *out, const char *name, const char *key, const char *exact,
                            const char *text)
{
    fputs("<td class=\"num\" title=\"", out);
    st_xml_text(out, name);
    fputs("\" data-key=\"", out);
    st_xml_text(out, key);
    fputs("\" data-value=\"", out);
    st_xml_text(out, exact);
    fputs("\">", out);
    st_xml_text(out, text);
    fputs("</td>", out);
}

void st_html_cell_num(FILE *out, const char *key, const char *exact, const char *text)
{
    fputs("<td class=\"num\" data-key=\"", out);
    st_xml_text(out, key);
    fputs("\" data-value=\"", out);
    st_xml_text(out, exact);
    fputs("\">", out);
    st_xml_text(out, text);
    fputs("</td>", out);
}

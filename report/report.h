/* The report layer's writers: a run's results as the JSON report (json.c), the text summary
 * (text.c) and, written from the same JSON report tree parsed back so every number they show is
 * the JSON's, HTML with SVG charts (run_html.c), Markdown and CSV tables (tables.c); the Perfetto
 * trace of a step (trace.c); compare's, sweep's and size's tables (report/compare.h,
 * report/sweep_out.h, report/size_out.h). Every writer returns text; cli/ writes it. A figure's
 * name and unit come from the report's schema (report/figures.h). */
#ifndef ST_REPORT_REPORT_H
#define ST_REPORT_REPORT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/forecast/run.h"
#include "planner/size.h"
#include "report/figures.h"
#include "scenarios/scenario.h"

/* What a report shows: the scenario, the seed the run used, the run's results, and how much
 * to say. */
typedef struct st_report {
    const st_scn *s;
    uint64_t seed;
    const st_run *run;
    int explain; /* --explain: show the closed forms beside the simulation */
} st_report;

/* An inference workload's service (report/serve_out.c): its object of the JSON report's jobs,
 * and its lines of the text summary (on cluster c: with pools, its header names its pool). */
cJSON *st_report_serve_json(const st_cluster_cfg *c, const st_run_serve *s);
void st_report_serve_text(FILE *out, const st_cluster_cfg *c, const st_run_serve *s);

/* The JSON report (the keys of docs/guide/scenario-reference.md). Returns a malloc'd string ending
 * in a newline; the caller frees it. */
char *st_report_json(const st_report *rep);

/* The same report as a tree, before it is printed (the caller cJSON_Deletes it): what a sweep's
 * columns read a figure from, so a sweep's cell is the run report's number. */
cJSON *st_report_json_tree(const st_report *rep);

/* Tree root printed as every JSON output prints it (cJSON_Print's indented form and a final
 * newline), malloc'd; root is deleted. */
char *st_report_json_print(cJSON *root);

/* The human summary of a run, malloc'd. */
char *st_report_text(const st_report *rep);

/* One step's pipeline of workload w as Chrome / Perfetto trace-event JSON (a process per pipeline
 * stage; threads for compute and for sends each way), malloc'd. */
char *st_report_trace(const st_workload_cfg *w, const st_pipe_trace *t);

/* The forms a report can take (--format). */
typedef enum st_report_format {
    ST_FMT_TEXT,
    ST_FMT_JSON,
    ST_FMT_HTML,
    ST_FMT_MARKDOWN,
    ST_FMT_CSV
} st_report_format;

/* The format named text, json, html, markdown or csv; -1 for another name or NULL. */
int st_report_format_of(const char *name);

/* The run's report in format ST_FMT_HTML, ST_FMT_MARKDOWN or ST_FMT_CSV (malloc'd). */
char *st_report_render(const st_report *rep, st_report_format f);

/* One leaf of a JSON tree: its path ("jobs[0].breakdown.compute_s"), its value. */
typedef void (*st_report_leaf_fn)(void *ctx, const char *path, const cJSON *leaf);

/* Call fn for every leaf (number, string, boolean, null) under node, in the tree's order, with
 * paths below prefix ("" at the root). Arrays of objects give "[i]" steps. */
void st_report_leaves(const cJSON *node, const char *prefix, st_report_leaf_fn fn, void *ctx);

/* What a reader calls the run report's leaf at path: its row's label in the report's schema,
 * with the statistic's label, the map member's name or a band's end ("Goodput over the replicas
 * (P90)"); key itself where no row names it. Malloc'd. */
char *st_report_leaf_label(const char *path, const char *key);

/* What the run report says of a UPS load when the scenario states no rating: the plant sized the
 * rating to the peak (plant.md), so a steady load reads near 100%. Every format says these words.
 */
#define ST_REPORT_UPS_SIZED "of a rating sized to the peak"

/* Whether cluster c leaves its UPS's rating to the plant, which sizes it to the peak. */
int st_report_ups_sized(const st_cluster_cfg *c);

/* st_report_leaf_label as run's report rep labels a row, in every format that labels it: the UPS
 * load's label says ", " ST_REPORT_UPS_SIZED where rep's scenario states no rating. Malloc'd. */
char *st_report_run_label(const st_report *rep, const char *path, const char *key);

/* The leaf at path of document doc as a reader sees it: a number in the unit of its row in the
 * report's schema (report/figures.h; a time, bytes, a share in percent, ...; a plain number where
 * it has no row), text as it is, booleans as true or false. Returns the text: the leaf's own
 * string, whole, for text (buf then holds a copy cut on a character boundary, so print the
 * return value), else buf, which ST_REPORT_VALUE_MAX bytes always hold. */
#define ST_REPORT_VALUE_MAX ST_FIG_TEXT_MAX
const char *st_report_value_text(st_fig_doc doc, const char *path, const cJSON *leaf, char *buf,
                                 size_t n);

/* Whether whole number v (up to 2^53) is one cJSON prints inexactly: its 15-digit form (8e+15
 * for 8000000000000001) reads back within cJSON's tolerance but not as v. Such numbers are
 * printed as their digits in every JSON report and CSV cell. */
int st_report_whole_digits(double v);

/* Number v as the JSON report prints it (cJSON's shortest form that reads back as v: 15
 * significant digits, else 17; st_report_whole_digits's as their digits, so that a seed reads
 * back as itself), empty when not finite: every CSV and sweep cell of a figure, so
 * that a figure is the same number in every format and command. n is at least 32. */
void st_report_number_exact(double v, char *buf, size_t n);
/* The leaf's JSON text, exactly as the JSON report prints it (cJSON's number form); returned as
 * st_report_value_text returns its text. */
const char *st_report_value_exact(const cJSON *leaf, char *buf, size_t n);

/* The JSON report of rep parsed back into a tree (the caller deletes it). */
cJSON *st_report_tree(const st_report *rep);

/* The run's report as one self-contained HTML document, Markdown, or CSV (key,value rows of
 * every leaf). Each malloc'd. */
char *st_report_html(const st_report *rep);
/* The cluster's GPUs from the report's `cluster` object, for a meta line: "N nodes of GPU", or
 * each pool's "name (N x GPU)" for a cluster of several types (cluster.pools); malloc'd. */
char *st_report_hardware(const cJSON *cl);
char *st_report_markdown(const st_report *rep);
char *st_report_csv(const st_report *rep);

/* The audit's table as the HTML and Markdown reports give it: its columns' JSON keys under
 * audit[] (status, level, check, message; the message states value and limit with units), each
 * column's heading (its row's label), and the checks in report order, FAIL first, then WARN,
 * then the rest, each in the audit's order: fn(ctx, check) for each. */
#define ST_REPORT_AUDIT_COLS 4
extern const char *const st_report_audit_keys[ST_REPORT_AUDIT_COLS];
const char *st_report_audit_head(size_t col);
void st_report_audit_each(const cJSON *audit, void (*fn)(void *ctx, const cJSON *check), void *ctx);

/* The waits of cluster run c's started jobs, in hours, into out (c->n of room); returns how many.
 */
size_t st_report_waits_h(const st_cluster_result *c, double *out);

/* The unit a chart of waits whose largest is max_h hours reads best in (hours, minutes, seconds,
 * milliseconds: sub-second waits were ticked 2e-05 h): the factor from hours, and the axis label
 * into *label. */
double st_report_waits_unit(double max_h, const char **label);

/* A service's sizing (its JSON, report/size_serve_out.c) as Markdown or HTML (titled with the
 * scenario's name, the answer in words, the rate and targets, the configurations' table) or CSV
 * (one line a configuration), malloc'd. */
char *st_size_serve_doc(const cJSON *t, const char *name, st_report_format f);
/* `strata size --format html|markdown` (report/size_doc.c): the sizing JSON tree t (size_out.c's
 * JSON, parsed back, so every number shown is the JSON's) of the search rp describes as one HTML
 * page titled with the scenario's name, opening with the answer in words, whose chart puts every
 * configuration of r evaluated against the front and the deadline, or as Markdown tables under
 * the same title and summary. Malloc'd. */
struct st_size_report;
char *st_size_doc(const struct st_size_report *rp, const st_size_result *r, const cJSON *t,
                  st_report_format f);

/* The answer in words each HTML and Markdown report opens with (report/summary.c), built from
 * the numbers the report already holds, each shown in its row's unit; malloc'd, one sentence.
 * Of a run (t its JSON report's tree): what the one training job trains, in what wall time, on
 * how many GPUs (or, with several jobs, what the cluster run did), the facility peak, the cost,
 * and the audit's FAIL and WARN counts. Of compare's JSON tree: the policies that give the lowest
 * mean JCT, makespan, mean wait and energy. Of a sweep: its points and axes (known before any
 * point runs, so a streamed Markdown table can open with it), and for the HTML page the points'
 * outcome, from its JSON points. Of size's JSON tree and its result: the best configuration,
 * how many meet the deadline and the budgets. */
char *st_summary_run(const st_report *rep, const cJSON *t);
char *st_summary_compare(const cJSON *t);
struct st_sweep;
char *st_summary_sweep(const struct st_sweep *sw);
char *st_summary_sweep_outcome(const cJSON *pts);
char *st_summary_size(const cJSON *t, const st_size_result *res);
/* A service's sizing (report/size_serve_out.c's JSON t) in words: its best configuration, the
 * load it serves within the targets, and how many of those tried serve it. */
char *st_summary_size_serve(const cJSON *t);

/* A memory stream for a writer, and its text once closed (malloc'd). */
FILE *st_report_open(char **buf, size_t *len);
char *st_report_close(FILE *out, char **buf);

/* Every CSV and Markdown cell of every report goes through these two (leaves.c says why each
 * character is treated so). A CSV cell: RFC 4180, quoted, its quotes doubled, when it
 * holds a comma, a quote or a line break; a text cell that a spreadsheet would run as a formula
 * (it begins with = + - @, a tab or a carriage return: OWASP "CSV Injection") is quoted with a
 * single quote before it; a cell that is wholly a JSON number (-3.5) stays as it is. A Markdown
 * table cell: & < > as entities, | \ [ ] ` * _ backslash-escaped (an underscore inside a word
 * left as it is), line breaks as spaces: no HTML, link, code span or cell break can form. */
void st_report_csv_cell(FILE *out, const char *s);
void st_report_md_cell(FILE *out, const char *s);

#endif

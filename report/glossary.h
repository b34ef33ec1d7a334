/* The terms of the HTML reports: one table (report/glossary.c) of the jargon a page may use
 * (MFU, goodput, the scheduler's policies, PUE, ...), each defined in one plain sentence taken
 * from the model's own documentation (docs/models, docs/guide), so that it says what Strata
 * computes. The HTML writer (html.c) passes the text of a page's summary, paragraphs, table
 * headings and text cells through st_glossary_text, which marks each term's first use on the
 * page, and ends the page with st_glossary_section: the terms the page used, and only those. */
#ifndef ST_REPORT_GLOSSARY_H
#define ST_REPORT_GLOSSARY_H

#include <stddef.h>
#include <stdio.h>

/* The most terms the table may hold, and the most spellings of one. */
#define ST_GLOSSARY_MAX   96
#define ST_TERM_SPELLINGS 8

typedef struct st_term {
    const char *id;   /* its entry's anchor on the page: "term-<id>" (ASCII, no spaces) */
    const char *name; /* what the Terms section calls it: "MFU (model FLOPs utilisation)" */
    const char *def;  /* one plain sentence, with its unit where it has one */
    /* How the text spells it: a whole word (no letter, digit, '_' or '-' either side), matched
     * case by case, except that a spelling whose first letter is lower case matches its capital
     * too ("goodput" marks "Goodput"). NULL after the last. */
    const char *spell[ST_TERM_SPELLINGS];
    /* 1 for a name that is also an English word (the policies pack, gang, priority, random): it
     * is marked only as a whole text or an item of a comma-separated list ("fifo, pack"). */
    int item;
} st_term;

/* The table, in alphabetical order of name, and its length. */
const st_term *st_glossary_terms(size_t *n);

/* Which terms a page has marked: zero it for a new page. */
typedef struct st_glossary {
    unsigned char used[ST_GLOSSARY_MAX];
} st_glossary;

/* Write text to out as st_xml_text does, the first use on the page of each term g has not yet
 * marked written as <a class="term" href="#term-ID"><abbr title="DEFINITION">text</abbr></a>
 * (the text as it was: only markup is added), and mark it in g. Where spellings of two terms
 * start at the same place, the longer wins ("MTBF the persistent copy restores", not "MTBF"). */
void st_glossary_text(st_glossary *g, FILE *out, const char *text);

/* The page's Terms section: a heading (id "terms") and a definition list of every term g has
 * marked, in the table's order, each <dt id="term-ID">; nothing when g has marked none. */
void st_glossary_section(const st_glossary *g, FILE *out);

#endif

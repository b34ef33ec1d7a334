/* Reading the CSV files a scenario names (job traces, the openb node and pod lists) line by line
 * from one open of a regular file, under the rules they share: a stated size cap, no NUL byte,
 * a header whose column names are unique, and names that are UTF-8 without control characters.
 * Memory stays within one buffer of ST_CSV_MAX_LINE plus a read chunk, whatever the file's size.
 * Internal to scenarios/. */
#ifndef ST_SCENARIOS_CSV_IN_H
#define ST_SCENARIOS_CSV_IN_H

#include <stddef.h>
#include <stdint.h>

#include "sim/err.h"

/* The largest CSV input read: 1 GiB, 256 bytes a row at the trace's row cap (scenarios/trace.h);
 * Philly's 82,247 jobs take 3.4 MB. Known from fstat before a byte is read. */
#define ST_CSV_MAX_BYTES (UINT64_C(1) << 30)
/* The longest line: 64 KiB. A longer one is returned cut there, flagged, and its rest skipped. */
#define ST_CSV_MAX_LINE 65536
/* The most columns a header may name (a row may have more fields; they are not read). */
#define ST_CSV_MAX_COLS 256

typedef struct st_csv {
    int fd;
    char *buf;
    size_t start, end, cap;
    uint64_t bytes; /* read so far */
    unsigned line;  /* the number of the line st_csv_next returned last, from 1 */
    int eof, overlong;
    char eol; /* the line end: '\n' (LF or CRLF) or '\r' (CR alone); 0 until the first is seen */
} st_csv;

/* Open path for reading without blocking (O_NONBLOCK: a FIFO without a writer returns at once)
 * and refuse what is not a regular file or is larger than ST_CSV_MAX_BYTES, before a byte is
 * read. Returns 0, or ST_ENOTFOUND (no such file), ST_EIO (cannot open, or not a regular file)
 * or ST_ELIMIT (too large) with the reason in why[0..n): "is a directory", "is not a regular
 * file (a FIFO, socket or device)", "is 2147483648 bytes, more than the limit of 1073741824 (1
 * GiB)", or the system's words. Close with st_csv_close either way. */
int st_csv_open(st_csv *c, const char *path, char *why, size_t n);

/* The next line as [*p, *p + *len), without its LF or CRLF; c->line is its number. A file whose
 * first line ends in a CR that no LF follows has lines ended by CR alone (classic Mac OS, and
 * Excel for Mac's "CSV (Macintosh)" format, write them), and is read so. A line
 * longer than ST_CSV_MAX_LINE comes back cut at that length with c->overlong set, and the rest
 * of it is skipped.
 * Returns 1, 0 at the end of the file, or ST_EIO or ST_ELIMIT (the file grew past ST_CSV_MAX_BYTES
 * while read) with why. */
int st_csv_next(st_csv *c, const char **p, size_t *len, char *why, size_t n);

/* The header row: the first line that is not blank (empty, or spaces and tabs alone), as
 * st_csv_next gives it (blank lines before it are skipped, as between rows, and a byte-order mark
 * is no content). Returns 1, 0 when the file has no such line (empty, a byte-order mark alone, or
 * blank lines only: the reader says the file is empty, not that its header lacks a column), or an
 * error code of st_csv_next with why. */
int st_csv_header_line(st_csv *c, const char **p, size_t *len, char *why, size_t n);

void st_csv_close(st_csv *c);

/* Split line [p, p + len) at commas: up to max fields into f and flen; returns how many fields
 * the line has, which may be more than max. A field quoted as RFC 4180 writes it ("a,b", spaces
 * around the quotes allowed) is given without its quotes, its commas its own; a doubled quote
 * inside stays doubled, and a quote that does not close, or has more after it before the comma,
 * leaves the field whole, quotes and all (st_csv_quoted finds such a field). A quoted field
 * cannot span lines. */
int st_csv_split(const char *p, size_t len, const char **f, size_t *flen, int max);

/* Where field [p, p + len), as st_csv_split gives it, still holds a quote (an unclosed quoted
 * field, one with more after its closing quote, or an escaped quote inside), else NULL: the
 * readers take a value with no quote in it. */
const char *st_csv_quoted(const char *p, size_t len);

/* The fields of a header row, trimmed of spaces: col[k] is the index of the field named want[k]
 * (NULL: not wanted; -1 when none is). Returns -1 when every non-empty name is unique, else the
 * index of the first field that repeats an earlier name, with that one's index in *first. */
int st_csv_header(const char *const *f, const size_t *flen, int nf, const char *const *want,
                  int n_want, int *col, int *first);

/* The header row [p, p + n), as st_csv_header_line read it from c (its line, and whether it was
 * cut), of file: col[k] the index of the column named want[k] (-1: none). A row longer than
 * ST_CSV_MAX_LINE (its names past the cut are unknown), a NUL byte ("malformed header row: a NUL
 * byte", at it), a carriage return inside it (the file's lines end in CR alone, so it reads as one
 * line), more than ST_CSV_MAX_COLS columns, a quote that does not close before its field's comma
 * (at it), or a name given twice, is an error added to errors
 * ("the header row names column 'x' twice (fields 2 and 5): which one to read is unclear").
 * Returns 0 or -1. */
int st_csv_read_header(st_diag *errors, const char *file, const st_csv *c, const char *p, size_t n,
                       const char *const *want, int n_want, int *col);

/* Why the header row [p, p + n), line line_no of file, names no column `want`: an error added to
 * errors, "<what> has no column '<want>' in its header row", located where the cause is and
 * saying what was found: a byte that is not UTF-8 (at it), one column that holds tabs or
 * semicolons ("it reads 'a\tb' as one column: the file's columns are separated by commas"), a
 * name that differs in case or is near (at it: "column names are case-sensitive", "did you
 * mean"; never one of others[0..n_others), the reader's other columns, NULL ones skipped), else
 * the names it holds. Returns -1. */
int st_csv_no_column(st_diag *errors, const char *file, unsigned line_no, const char *p, size_t n,
                     const char *what, const char *want, const char *const *others, int n_others);

/* The 1-based column, in characters, of byte q of the line that starts at p. */
unsigned st_csv_col(const char *p, const char *q);

/* Whether a name field [p, p + len) may be printed: -1 when it may; else the byte offset of
 * the first that may not (a NUL, a control character other than tab: C0, DEL or a UTF-8 C1,
 * or bytes that are not well-formed UTF-8), with *what naming it for a message ("a NUL byte",
 * "a control character (U+001B)", "a byte that is not UTF-8 (0xFF)") in what[0..n). The rules
 * are those of the scenario's values (scenarios/ytree.c): names reach terminals and reports. */
long st_csv_bad_name(const char *p, size_t len, char *what, size_t n);

/* Skipped rows each get a warning up to this many; one summary line gives the total. */
#define ST_CSV_SKIP_WARNINGS 10

/* How a reader reports its rows (the job traces' and the request traces' rules): a malformed row
 * is a warning FILE:LINE:COL, "malformed <noun>: ...; row skipped", for the first
 * ST_CSV_SKIP_WARNINGS and a total at the end, or with refuse an error that stops the read; an
 * error no setting skips (a value past a bound) stops it too. The reader sets line and line_no
 * for each row. */
typedef struct st_csv_report {
    st_diag *errors, *warnings;
    const char *file; /* for locations */
    const char *noun; /* "trace row", "request row" */
    int refuse;
    size_t skipped;      /* malformed rows so far */
    unsigned first_skip; /* the line of the first */
    int first_warning;   /* the index of its warning in warnings */
    int stop;            /* an error was reported: read no further */
    const char *line;    /* the row being read, for columns */
    unsigned line_no;
} st_csv_report;

/* A malformed row at byte `at` of it (NULL: its start). */
void st_csv_malformed(st_csv_report *r, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A row [p, p + n) holding a NUL byte, or a carriage return (the file's lines end in LF or CRLF
 * there: st_csv_next reads a file of CR line ends as such), reported malformed at it: 1 when it
 * was, else 0. A reader checks it first, since a lone CR joins two rows into one. */
int st_csv_row_bytes(st_csv_report *r, const char *p, size_t n);

/* An error at byte `at` of the row that no `malformed:` setting skips. */
void st_csv_row_error(st_csv_report *r, const char *at, int code, const char *msg);

/* The skipped rows in one warning at `at`, "<what> '<name>': N malformed rows skipped, the
 * first at FILE:LINE", whatever their count (the per-row warnings stop at
 * ST_CSV_SKIP_WARNINGS); nothing when none was, or when they were refused. */
void st_csv_skipped_summary(const st_csv_report *r, st_loc at, const char *what, const char *name);

/* When no row could be read because each was malformed, the reason in words for the caller's
 * error, "its 2 rows were all malformed (each is listed below)", in buf[0..n). Returns buf. */
const char *st_csv_skipped_reason(const st_csv_report *r, char *buf, size_t n);

/* The skipped rows' warnings (up to ST_CSV_SKIP_WARNINGS) copied to errors as refuse says them,
 * "malformed <noun>: ...", for a read that kept no row: a scenario that does not load prints no
 * warning, so without them nothing would say which row failed or why. Nothing when no row was
 * skipped, or they were refused (then they are errors already). */
void st_csv_skipped_as_errors(const st_csv_report *r);

/* Every line of c after the header to the reader's row(ctx, line, length), with rep's line and
 * line_no set: a blank line is skipped, an overlong one malformed, and the rows past max_rows
 * an error at the first of them (`too_many`, its message); it stops at rep->stop. Returns 0
 * or an error code of st_csv_next, with why. */
int st_csv_each_row(st_csv *c, st_csv_report *rep, unsigned max_rows, const char *too_many,
                    void (*row)(void *ctx, const char *p, size_t n), void *ctx, char *why,
                    size_t wn);

#endif

/* Outputs never replace inputs: before a command writes anything, each file it will write is
 * compared with the files it reads (the scenario, its job trace, calibration file and request
 * traces, and the files a sweep's values name) and with its other
 * outputs, and its folder checked to be there and writable. `strata run s.yaml -o s.yaml` used to
 * replace the scenario with its own report. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "sim/xalloc.h"

/* Who a path is: the file it names (device and inode, through links, as writes follow links),
 * or for a path that does not exist yet, its canonical name (the real folder and the last
 * component), so two spellings of one new file ("a.json", "./a.json") are one. Paths that name
 * something other than a regular file (a terminal, /dev/null, a FIFO) are written through and
 * may repeat: kind 0. */
typedef struct who {
    int kind; /* 0: not a file that can be replaced, 1: an existing regular file, 2: new */
    dev_t dev;
    ino_t ino;
    char *name; /* kind 2: canonical name, malloc'd */
} who;

static char *canonical_new(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? st_xstrndup(path, (size_t)(slash - path + (slash == path))) : NULL;
    char *real = realpath(dir ? dir : ".", NULL);
    free(dir);
    if (!real)
        return st_xstrdup(path); /* the folder is missing: the write will say so */
    const char *base = slash ? slash + 1 : path;
    char *out = st_xmalloc(strlen(real) + strlen(base) + 2);
    strcpy(out, real);
    strcat(out, "/");
    strcat(out, base);
    free(real);
    return out;
}

static who identify(const char *path)
{
    who w = {0};
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISREG(st.st_mode))
            w = (who){.kind = 1, .dev = st.st_dev, .ino = st.st_ino};
    } else if (errno == ENOENT) {
        w = (who){.kind = 2, .name = canonical_new(path)};
    }
    return w;
}

static int same(const who *a, const who *b)
{
    if (a->kind != b->kind || !a->kind)
        return 0;
    return a->kind == 1 ? a->dev == b->dev && a->ino == b->ino : strcmp(a->name, b->name) == 0;
}

/* The first clash of output k with the inputs or an earlier output, as a usage error; 0 when
 * none. */
static int clash(const char *cmd, const st_cli_file *in, const who *iw, size_t n_in,
                 const st_cli_file *out, const who *ow, size_t k)
{
    for (size_t i = 0; i < n_in; i++)
        if (same(&ow[k], &iw[i]))
            return st_cli_usage_error(cmd,
                                      "%s '%s' is the %s '%s': an output never replaces "
                                      "an input; name another file",
                                      out[k].what, out[k].path, in[i].what, in[i].path);
    for (size_t j = 0; j < k; j++)
        if (same(&ow[k], &ow[j]))
            return st_cli_usage_error(cmd, "%s '%s' is also %s's file: each output needs its own",
                                      out[k].what, out[k].path, out[j].what);
    return 0;
}

/* The files s was read from, into in (room for 3 + its workloads): its own file, its job
 * trace, its calibration file (`--calibration` is read as cluster.calibration), each service's
 * request trace. */
static size_t inputs_of(const st_scn *s, st_cli_file *in)
{
    size_t n = 0;
    in[n++] = (st_cli_file){"scenario", st_scn_path(s)};
    const st_trace_cfg *t = st_scn_trace(s);
    if (t && t->file)
        in[n++] = (st_cli_file){"job trace", t->file};
    const st_cluster_cfg *c = st_scn_cluster(s);
    if (c->calib.enabled && c->calib.file)
        in[n++] = (st_cli_file){"calibration file", c->calib.file};
    for (size_t i = 0; i < st_scn_workload_count(s); i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind == ST_WL_INFERENCE && w->inference.trace_file)
            in[n++] = (st_cli_file){"request trace", w->inference.trace_file};
    }
    return n;
}

/* Whether output o can be written where it is named, as a usage error before the command runs
 * (a run of minutes used to end in 'cannot create a temporary file next to it'): its folder
 * exists and is writable, for the temporary file the atomic write renames over it; it is not a
 * folder, nor a name ending in '/', which only a folder can have. A terminal, /dev/null or a FIFO
 * is written through, wherever it is; a symbolic link
 * (/dev/stdout among them) is left to the writer, which follows it to its file's own folder
 * (cli/write_file.c). 0 when it can. */
static int writable(const char *cmd, const st_cli_file *o)
{
    struct stat st;
    if (stat(o->path, &st) == 0 && S_ISDIR(st.st_mode))
        return st_cli_usage_error(cmd, "%s '%s': it is a directory; name a file in it", o->what,
                                  o->path);
    size_t len = strlen(o->path); /* "nofile/" was "its folder 'nofile' does not exist" */
    if (len && o->path[len - 1] == '/')
        return st_cli_usage_error(cmd, "%s '%s' names a folder, not a file: name the file to write",
                                  o->what, o->path);
    if ((stat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) ||
        (lstat(o->path, &st) == 0 && S_ISLNK(st.st_mode)))
        return 0;
    const char *slash = strrchr(o->path, '/');
    char *dir = slash ? st_xstrndup(o->path, (size_t)(slash - o->path + (slash == o->path)))
                      : st_xstrdup(".");
    int rc = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        rc = st_cli_usage_error(cmd, "%s '%s': its folder '%s' %s", o->what, o->path, dir,
                                stat(dir, &st) != 0 ? "does not exist" : "is not a folder");
    else if (access(dir, W_OK | X_OK) != 0)
        rc = st_cli_usage_error(cmd, "%s '%s': its folder '%s' is not writable (%s)", o->what,
                                o->path, dir, strerror(errno));
    free(dir);
    return rc;
}

/* Whether path is named FILE.journal and is a sweep's journal (cli/sweep_journal.c): `run -o
 * r.csv.journal` replaced the rows a live sweep resumes from. sweep refuses any journal as its
 * -o itself, after checking its own journal. */
static int journal_named(const char *path)
{
    size_t len = strlen(path);
    return len > 8 && strcmp(path + len - 8, ".journal") == 0 && st_sweep_journal_is(path);
}

int st_cli_check_outputs_in(const char *cmd, const st_scn *s, const st_cli_file *more,
                            size_t n_more, const st_cli_file *out, size_t n_out)
{
    st_cli_file *in = st_xcalloc(3 + st_scn_workload_count(s) + n_more, sizeof *in);
    size_t n_in = inputs_of(s, in);
    for (size_t i = 0; i < n_more; i++)
        in[n_in++] = more[i];
    who *iw = st_xcalloc(n_in, sizeof *iw), *ow = st_xcalloc(n_out + 1, sizeof *ow);
    for (size_t i = 0; i < n_in; i++)
        iw[i] = identify(in[i].path);
    int rc = 0;
    for (size_t k = 0; k < n_out && !rc; k++) {
        if (out[k].path && !out[k].path[0]) { /* `-o ''` ran the work and then failed (exit 1),
                                                  and a sweep wrote ./.journal */
            rc = st_cli_usage_error(cmd, "%s needs a file name, found ''", out[k].what);
            break;
        }
        ow[k] = out[k].path ? identify(out[k].path) : (who){0};
        rc = clash(cmd, in, iw, n_in, out, ow, k);
        if (!rc && out[k].path)
            rc = writable(cmd, &out[k]);
        if (!rc && out[k].path && strcmp(cmd, "sweep") != 0 && journal_named(out[k].path))
            rc = st_cli_usage_error(cmd,
                                    "%s '%s': a sweep's journal (its first line is a journal "
                                    "row); writing it would lose the rows its sweep resumes from: "
                                    "choose another name",
                                    out[k].what, out[k].path);
    }
    for (size_t i = 0; i < n_in; i++)
        free(iw[i].name);
    for (size_t k = 0; k < n_out; k++)
        free(ow[k].name);
    free(iw);
    free(ow);
    free(in);
    return rc;
}

int st_cli_check_outputs(const char *cmd, const st_scn *s, const st_cli_file *out, size_t n_out)
{
    return st_cli_check_outputs_in(cmd, s, NULL, 0, out, n_out);
}

/* The formats a file name's extension names, and how a message spells each. */
static const struct {
    const char *ext, *format, *spelled;
} by_extension[] = {
    {".html", "html", "an HTML"},      {".htm", "html", "an HTML"},
    {".md", "markdown", "a Markdown"}, {".markdown", "markdown", "a Markdown"},
    {".csv", "csv", "a CSV"},          {".json", "json", "a JSON"},
    {".txt", "text", "a text"},
};

static const char *spelled(const char *format)
{
    for (size_t k = 0; k < sizeof by_extension / sizeof by_extension[0]; k++)
        if (strcmp(by_extension[k].format, format) == 0)
            return by_extension[k].spelled + (by_extension[k].spelled[1] == 'n' ? 3 : 2);
    return format;
}

int st_cli_output_format(const char *cmd, const char *path, const char *given, const char *gets,
                         int has_text, const char **format)
{
    *format = NULL;
    const char *slash = path ? strrchr(path, '/') : NULL, *dot;
    if (!path || !(dot = strrchr(slash ? slash : path, '.')))
        return 0;
    size_t k = 0, n = sizeof by_extension / sizeof by_extension[0];
    while (k < n && strcasecmp(dot, by_extension[k].ext) != 0)
        k++;
    if (k == n)
        return 0;
    int text = strcmp(by_extension[k].format, "text") == 0;
    if (text && !has_text && given) /* the format asked for, into a file named .txt */
        return 0;
    if (text && !has_text) /* it wrote CSV into r.txt */
        return st_cli_usage_error(cmd,
                                  "-o '%s' names a text file, but %s writes no plain text: name "
                                  "it for the format it should get (.csv, .json, .md or .html), "
                                  "or give that --format",
                                  path, cmd);
    /* a command's text goes to a .txt (its -o takes the JSON beside text otherwise) */
    if (given && strcmp(text ? given : gets, by_extension[k].format) != 0)
        return st_cli_usage_error(cmd,
                                  "-o '%s' names %s file, but --format %s writes %s to it: give "
                                  "--format %s, or leave --format out",
                                  path, by_extension[k].spelled, given, spelled(gets),
                                  by_extension[k].format);
    *format = by_extension[k].format;
    return 0;
}

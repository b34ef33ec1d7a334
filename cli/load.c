/* A command's scenario, with the calibration `--calibration FILE` names put in as its
 * cluster.calibration by the loader's own override (scenarios/override.h), so the file is read,
 * checked and located as one the scenario named. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "scenarios/override.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* The working folder, malloc'd: grown until it fits, where a fixed buffer made getcwd fail on
 * a deep folder and the path stay relative (then read from the scenario's folder); NULL when
 * it cannot be read. */
static char *working_folder(void)
{
    for (size_t n = 4096;; n *= 2) {
        char *buf = st_xmalloc(n);
        if (getcwd(buf, n))
            return buf;
        free(buf);
        if (errno != ERANGE || n > (size_t)1 << 24)
            return NULL;
    }
}

st_scn_set st_cli_calibration_set(const char *calibration, char **path, char **label)
{
    char *cwd = calibration[0] != '/' ? working_folder() : NULL;
    *path = cwd ? st_xasprintf("%s/%s", cwd, calibration) : st_xstrdup(calibration);
    free(cwd);
    /* a label reports print (a sweep's description, an error's location): one line of UTF-8
     * whatever the name's bytes */
    char *name = st_utf8_one_line(calibration);
    *label = st_xasprintf("--calibration %s", name);
    free(name);
    return (st_scn_set){"cluster.calibration", *path, *label, *label};
}

/* The override's value and label live as long as the process: the scenario's locations and the
 * errors found after the load point at the label (one command loads one scenario this way). */
static char *abs_path, *label;

int st_cli_load(const char *file, const char *calibration, st_scn **s)
{
    st_diag d = {0};
    size_t n = 0;
    st_scn_set set = {0};
    if (calibration) { /* the loader reads a relative path from the scenario's folder */
        free(abs_path);
        free(label);
        set = st_cli_calibration_set(calibration, &abs_path, &label);
        n = 1;
    }
    int rc = st_scn_load_file_set(file, &set, n, s, &d);
    if (rc)
        st_cli_print_diag(&d);
    return rc ? ST_EXIT_INPUT : 0;
}

int st_cli_refuse_pools(const char *cmd, const st_scn *s, const char *what)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    if (c->n_pools <= 0)
        return 0;
    st_err err = {0};
    st_err_set(&err, ST_EINVAL, c->pools_loc, "strata %s: %s", cmd, what);
    st_cli_print_err(&err);
    return ST_EXIT_INPUT;
}

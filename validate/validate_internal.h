/* What the validation harnesses share: the harness record every set fills, the table of how a
 * set runs one case and which goal its sets are held to, and the listing of a folder's cases. */
#ifndef ST_VALIDATE_VALIDATE_INTERNAL_H
#define ST_VALIDATE_VALIDATE_INTERNAL_H

#include "validate/validate.h"

typedef struct st__valid_ops {
    /* Run case i of h into *row, which comes zeroed but for note, algo and proto ("") and kind
     * (validation), fits (1) and pass (0). Returns 0 or the case's error (st_valid_case). */
    int (*run)(const st_valid_harness *h, size_t i, st_valid_row *row, st_diag *d, st_err *err);
    /* The goal of the set named set; NULL: none beyond every row within its bound. */
    st_valid_goal (*goal)(const char *set);
} st__valid_ops;

struct st_valid_harness {
    const st__valid_ops *ops;
    size_t n;
    char **files; /* the case files of a set read from a folder (n of them); else NULL */
    st_valid_row *rows;
    unsigned char *ran; /* ran[i]: case i ran and rows[i] holds its row */
    st_valid_set *sets;
    size_t n_sets;
};

/* A harness of n cases run by ops (never fails: memory runs out through st_xmalloc). */
st_valid_harness *st__valid_harness_new(const st__valid_ops *ops, size_t n);

/* A harness over the case files of dir (st__valid_case_files), run by ops. Returns 0, or
 * ST_ENOTFOUND with "no case files in 'dir'" when it holds none; *out is then NULL. */
int st__valid_harness_dir(const st__valid_ops *ops, const char *dir, st_valid_harness **out,
                          st_err *err);

/* The *.yaml files directly in dir (not below), as malloc'd paths "dir/name" sorted by name, so
 * a report's order never depends on the file system; their count into *n. NULL (and *n = 0)
 * when dir cannot be read or holds none. The caller frees each path and the array. */
char **st__valid_case_files(const char *dir, size_t *n);

#endif

/* The case files of a validation folder: every *.yaml directly in it, in name order, and the
 * file names of their errors. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "validate/validate_internal.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **st__valid_case_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        names = st_xgrow(names, sizeof *names, *n + 1, &cap);
        char *path = st_xmalloc(strlen(dir) + len + 2);
        sprintf(path, "%s/%s", dir, e->d_name);
        names[(*n)++] = path;
    }
    closedir(d);
    if (*n > 1)
        qsort(names, *n, sizeof *names, by_name);
    return names;
}

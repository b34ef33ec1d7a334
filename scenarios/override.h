/* Overrides of a scenario's keys by dotted path (`strata sweep --set PATH=V`): applied to the
 * parsed YAML tree before the typed load, so every value is read, unit-checked and range-checked
 * by the loader exactly as if it were written in the file. */
#ifndef ST_SCENARIOS_OVERRIDE_H
#define ST_SCENARIOS_OVERRIDE_H

#include <stddef.h>

#include "scenarios/scenario.h"
#include "scenarios/ytree.h"
#include "sim/err.h"

/* The most steps one path may have (`workloads[pretrain].parallel.tp` has four). */
#define ST_SET_MAX_STEPS 32

/* One override: the key at `path` becomes the plain YAML scalar `value`. `label` is where the
 * value's errors point ("--set cluster.nodes=4" gives "--set cluster.nodes=4: error: ..."),
 * `at_path` where the path's point (an unknown key, a list entry that is not there; NULL: label),
 * so a caller can tell a wrong path, wrong whatever the value, from a wrong value. All are
 * borrowed, and the labels must outlive the scenario and the diag they are loaded into. */
typedef struct st_scn_set {
    const char *path, *value, *label, *at_path;
} st_scn_set;

/* Check the syntax of a path: keys (letters, digits, '_' and '-') joined by '.', each followed
 * by any number of selections `[N]` (a list's entry by index from 0, leading zeros skipped) or
 * `[NAME]` (the entry whose `name` is NAME, of at most 127 bytes; a longer name is selected by
 * its index). Returns 0, or -1 with what is wrong and where (in characters, a character quoted
 * whole) in why. */
int st_scn_set_check(const char *path, char *why, size_t n);

/* path as the key it names in the tree under root, malloc'd: each selection of a list entry as
 * the entry's index without leading zeros, so `workloads[finetune].steps` (where entry 0 is
 * named finetune) and `workloads[00].steps` are both `workloads[0].steps`. A selection root does
 * not resolve (no such list or entry) is kept as written: the load says what is wrong with it.
 * NULL when the path's syntax is wrong (st_scn_set_check). So a command can tell two spellings
 * of one key apart from two keys. */
char *st_scn_set_canon(const st_ynode *root, const char *path);

/* The file an override of `path` to `value` makes the loader read, resolved as the loader
 * resolves it (an absolute path as it is, else from the folder of base's file), malloc'd, and
 * in *what what it is ("job trace"); NULL when the key at `path` is not one the loader reads as
 * a file path (trace.file, workloads[...].requests.file, cluster.calibration). So a command can
 * tell which files a swept scenario would read before any point runs. */
char *st_scn_set_file(const st_scn *base, const char *path, const char *value, const char **what);

/* st_scn_load_buffer with overrides: before the typed load, each of sets[0..n) in order replaces
 * (or adds) its key in the tree; mappings along a path that the file lacks are added empty, so
 * an unknown key anywhere on it is the loader's "unknown key ... did you mean" error, located at
 * the override's label. A selection of a list entry that does not exist is a located error
 * naming the entries there are. Aliased subtrees are copied along the path, never changed in
 * place, so an override changes one place of the file only. n == 0 is st_scn_load_buffer. */
int st_scn_load_buffer_set(const char *name, const char *buf, size_t len, const st_scn_set *sets,
                           size_t n, st_scn **out, st_diag *diag);

/* st_scn_load_file with overrides, as st_scn_load_buffer_set. */
int st_scn_load_file_set(const char *path, const st_scn_set *sets, size_t n, st_scn **out,
                         st_diag *diag);

/* Internal to scenarios/: the copies an application made, freed after the load. */
typedef struct st_ovr st_ovr;

/* The root with sets[0..n) applied (root itself when n is 0, or when root is not a mapping: the
 * loader reports that), or NULL after recording the first failing override's error in diag. The
 * copies live in *arena until st__ovr_free. */
const st_ynode *st__ovr_apply(st_ovr **arena, const st_ynode *root, const st_scn_set *sets,
                              size_t n, st_diag *diag);
void st__ovr_free(st_ovr *arena);

#endif

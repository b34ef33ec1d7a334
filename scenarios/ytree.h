/* A YAML document as a located tree: every node keeps file:line:column, aliases are shared
 * subtrees (each use a node of its own, located at the use), `<<` merge keys are applied. The
 * only file that includes <yaml.h> is ytree.c. Internal to scenarios/. */
#ifndef ST_SCENARIOS_YTREE_H
#define ST_SCENARIOS_YTREE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/err.h"

/* Limits that turn hostile input into a clear message instead of a hang or a crash. */
#define ST_YTREE_MAX_DEPTH    64          /* nested mappings and sequences */
#define ST_YTREE_MAX_SCALAR   65536       /* bytes in one scalar */
#define ST_YTREE_MAX_EXPANDED 1000000     /* nodes after expanding every alias */
#define ST_YTREE_MAX_FILE     (16u << 20) /* bytes in one scenario file */

typedef enum st_ynode_kind { ST_YN_SCALAR, ST_YN_MAP, ST_YN_SEQ } st_ynode_kind;

typedef struct st_ynode st_ynode;
struct st_ynode {
    st_ynode_kind kind;
    st_loc loc;
    const char *text; /* scalar text, NUL-terminated ("" for an empty scalar) */
    int plain;        /* scalar was unquoted (so "null" and "~" mean null) */
    st_ynode **keys;  /* map: n scalar keys, in file order */
    st_ynode **kids;  /* map: n values; seq: n items */
    uint32_t *order;  /* map: entry indices sorted by key, for st_ynode_get */
    size_t n;
    size_t expanded; /* this node plus everything under it, aliases expanded; saturates */
    /* For an alias's use: the anchored node it repeats, whose contents this node shares, and
     * loc is where the alias stands, so a message about the node points at the use, not the
     * anchor. NULL for a node the file spells out. */
    const st_ynode *alias;
};

typedef struct st_ytree st_ytree;

/* Parse buf[0..len) (named `file` in locations; the name is borrowed and must outlive the tree)
 * into a tree. Returns 0 and sets *out, or a negative ST_E* code with one error in *err: a
 * syntax error where libyaml found it, a tab used for indentation, nesting, scalar or alias
 * expansion past the limits above, duplicate keys, more than one document, an undefined alias,
 * or a non-scalar key. An empty document gives a tree whose root is NULL. */
int st_ytree_parse(const char *file, const char *buf, size_t len, st_ytree **out, st_err *err);

/* The document's root node, NULL for an empty file. Borrowed from the tree. */
const st_ynode *st_ytree_root(const st_ytree *t);

void st_ytree_free(st_ytree *t);

/* The value under key in map m, or NULL: a binary search over the mapping's sorted keys. */
const st_ynode *st_ynode_get(const st_ynode *m, const char *key);

/* True for an empty plain scalar, "~" or "null": the YAML spellings of nothing. */
int st_ynode_is_null(const st_ynode *n);

/* "a mapping", "a list", "a value": for messages about what was found. */
const char *st_ynode_kind_name(const st_ynode *n);

/* The first character of v[0..len) that no scalar may hold, as a code point (0 for a NUL), or -1
 * when none: control characters but tab and line breaks, DEL and the C1 controls. The loader
 * refuses them in a file's values, and sweep's --set in its own. */
long st_ytree_bad_char(const unsigned char *v, size_t len);

/* For a file whose whole document is one value: when text[0..len) looks like a CSV file (its first
 * line past comments and blank lines has a comma and no "key: value"), "; it looks like a CSV file
 * ('<its first line>'): name a trace in a scenario, trace: { file: ... }" in buf[0..n), else "".
 * Returns buf. */
const char *st_ytree_csv_hint(const char *text, size_t len, char *buf, size_t n);

#endif

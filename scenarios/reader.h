/* Table-driven reading of located YAML mappings into plain structs: each field names its key,
 * kind, unit dimension and range, and the reader reports every problem with file:line:col,
 * including unknown keys with a did-you-mean suggestion. Internal to scenarios/. */
#ifndef ST_SCENARIOS_READER_H
#define ST_SCENARIOS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/limits.h"
#include "scenarios/ytree.h"
#include "sim/err.h"
#include "sim/units.h"

typedef struct st_rd st_rd;

typedef enum st_fkind {
    ST_F_DIM,  /* double, with a unit of `dim` */
    ST_F_INT,  /* int or int64_t (by size), whole number */
    ST_F_ENUM, /* int, index into names[] */
    ST_F_BOOL, /* int, true / false */
    ST_F_STR,  /* const char *, owned by the scenario */
    ST_F_MAP,  /* a nested mapping whose fields land in the same struct */
    ST_F_FN    /* custom reader */
} st_fkind;

typedef struct st_field st_field;
typedef int (*st_field_fn)(st_rd *rd, const st_ynode *n, void *base);

struct st_field {
    const char *key;
    st_fkind kind;
    size_t off, size; /* where in the struct, and how wide (ST_F_INT) */
    st_dim dim;       /* ST_F_DIM */
    st_range range;
    double max;               /* 0 = no upper bound */
    const st_limit *lim;      /* ST_F_DIM: the range a model can represent, or NULL */
    const char *const *names; /* ST_F_ENUM, NULL-terminated */
    const st_field *sub;      /* ST_F_MAP, terminated by a field with key NULL */
    st_field_fn fn;           /* ST_F_FN */
    int required;
};

/* Designated-initializer helpers so tables stay one line per key. Optional designators
 * (`.required = 1`, `.max = 64`) follow the mandatory arguments; the last mandatory argument
 * rides in __VA_ARGS__ because C11 wants at least one argument there. */
#define ST_FDIM(S, k, m, d, ...)                                                                   \
    {                                                                                              \
        .key = k, .kind = ST_F_DIM, .off = offsetof(S, m), .dim = d, .range = __VA_ARGS__          \
    }
#define ST_FINT(S, k, m, ...)                                                                      \
    {                                                                                              \
        .key = k, .kind = ST_F_INT, .off = offsetof(S, m), .size = sizeof(((S *)0)->m),            \
        .range = __VA_ARGS__                                                                       \
    }
#define ST_FENUM(S, k, m, ...)                                                                     \
    {                                                                                              \
        .key = k, .kind = ST_F_ENUM, .off = offsetof(S, m), .names = __VA_ARGS__                   \
    }
#define ST__FOFF(kd, S, k, m, ...)                                                                 \
    {                                                                                              \
        .key = k, .kind = kd, .off = offsetof(S, m), __VA_ARGS__                                   \
    }
#define ST_FBOOL(S, k, ...) ST__FOFF(ST_F_BOOL, S, k, __VA_ARGS__, .max = 0)
#define ST_FSTR(S, k, ...)  ST__FOFF(ST_F_STR, S, k, __VA_ARGS__, .max = 0)
#define ST_FMAP(k, ...)                                                                            \
    {                                                                                              \
        .key = k, .kind = ST_F_MAP, .sub = __VA_ARGS__                                             \
    }
#define ST_FFN(k, ...)                                                                             \
    {                                                                                              \
        .key = k, .kind = ST_F_FN, .fn = __VA_ARGS__                                               \
    }
#define ST_FEND                                                                                    \
    {                                                                                              \
        .key = NULL                                                                                \
    }

/* Strings the reader hands out live in an owner's list and are freed with it. */
typedef struct st_strpool {
    char **items;
    size_t n, cap;
} st_strpool;

/* The value nodes whose reading reported an error, so later checks can skip what depends on a
 * broken value instead of repeating its error (no cascades). */
typedef struct st_failset {
    const st_ynode **items;
    size_t n, cap;
} st_failset;

struct st_rd {
    st_diag *diag;
    st_strpool *pool;
    const char *file;
    st_failset failed; /* filled by st_rd_map; freed by st_rd_release */
};

/* True when reading value n (the value of a key st_rd_map read, or one marked by hand)
 * reported an error; false for NULL (an absent key). Checks that use the value skip on true. */
int st_rd_failed(const st_rd *rd, const st_ynode *n);

/* True when any of the NULL-terminated keys of mapping m failed (see st_rd_failed). */
int st_rd_any_failed(const st_rd *rd, const st_ynode *m, const char *const *keys);

/* Mark n failed by hand, for a value a custom check found wrong. */
void st_rd_mark_failed(st_rd *rd, const st_ynode *n);

/* Free what the reader keeps between calls (the failed-value set). */
void st_rd_release(st_rd *rd);

/* Read mapping n into base according to fields. `what` names the mapping in messages
 * ("cluster.fabric"). Problems go to rd->diag; returns 0 if this mapping added none. */
int st_rd_map(st_rd *rd, const st_ynode *n, const st_field *fields, void *base, const char *what);

/* Single values, for custom readers. Each reports its own error and returns non-zero. */
int st_rd_dim(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r, double max,
              double *out);
int st_rd_int(st_rd *rd, const st_ynode *n, const char *key, st_range r, double max, int64_t *out);
/* st_rd_dim, then the model's limit (NULL: none): "detect: 100 y is beyond the longest duration
 * the life model represents (at most 73.12 y: 2^61 ns)", or "is below ... (at least ...: ...)"
 * for a positive value under lim->min, the bound printed in the value's dimension. */
int st_rd_dim_lim(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r,
                  const st_limit *lim, double *out);
/* Both: the model's limit (NULL: none), then the field's own cap max (0: none). Every number
 * the loader reads goes through st_limit_parse (models/config/limits.h), as the trace reader's
 * and the command line's do, so one value gets one message whatever its source. */
int st_rd_dim_lim_max(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r,
                      const st_limit *lim, double max, double *out);
int st_rd_str(st_rd *rd, const st_ynode *n, const char *key, const char **out);
int st_rd_enum(st_rd *rd, const st_ynode *n, const char *key, const char *const *names, int *out);
int st_rd_expect(st_rd *rd, const st_ynode *n, st_ynode_kind kind, const char *what);

/* Record an error at n's location (or the file when n is NULL). A message too long for an st_err
 * has each copy of n's text, when longer than ST_UTF8_QUOTE_MAX bytes, cut as ST_UTF8_QUOTED
 * cuts it, so that the rest of the message is kept; whatever still runs past is cut between
 * characters. Returns -1. */
int st_rd_fail(st_rd *rd, const st_ynode *n, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Refuse a list with more than max entries: "what: more than MAX entries". Lists whose entries
 * are looked up by name are kept to a size where those lookups stay cheap. */
int st_rd_list_limit(st_rd *rd, const st_ynode *n, const char *what, size_t max);

/* The index of the earliest second occurrence of a name in names[0..n) (NULL entries are
 * skipped), with the index of its first occurrence in *first; -1 when all differ. Sorts a copy
 * of the indices: O(n log n), so long lists stay fast. */
long st_first_dup_name(const char *const *names, size_t n, long *first);

/* A field reader that accepts any value: for keys another reader handles (a section read later,
 * or `base:`, applied before the mapping is read). */
int st_rd_skip(st_rd *rd, const st_ynode *n, void *base);

/* n zeroed bytes in the pool (for a list a value reads into); they live until
 * st_strpool_release. */
void *st_rd_alloc(st_rd *rd, size_t n);

/* Copy s into the pool; the copy lives until st_strpool_release. */
const char *st_rd_strdup(st_rd *rd, const char *s);
/* The same for s[0..len) (no NUL needed), as a NUL-terminated copy. */
const char *st_rd_strndup(st_rd *rd, const char *s, size_t len);
void st_strpool_release(st_strpool *p);

/* The most suggestions a did-you-mean lists before it ends in "...". */
#define ST_NEAR_MAX 3

/* What the user likely meant by word among candidates[0..n): writes up to ST_NEAR_MAX of them
 * to out and returns how many matched (which may be more than it wrote). First the candidates
 * word begins, ignoring case, when word has 2 characters or more ("h100" is the start of
 * "h100-sxm" and "h100-pcie"), shortest first, ties in candidate order; failing those, the one
 * closest by edit distance if close enough to be a typo (distance <= max(1, strlen/3)), ties
 * to the earlier candidate. */
size_t st_near_names(const char *word, const char *const *candidates, size_t n, const char **out);

/* The suggestion as message text: "; did you mean 'a'?", "; did you mean 'a' or 'b'?",
 * "; did you mean 'a', 'b' or 'c'?", "; did you mean one of 'a', 'b', 'c', ...?", or "" when
 * nothing is near. Writes into buf[0..len) and returns buf. */
const char *st_did_you_mean(const char *word, const char *const *candidates, size_t n, char *buf,
                            size_t len);

/* True when mapping m has a key that is not in fields and that the did-you-mean takes for
 * `key`: the value the user meant for key is then unknown, and checks that read it skip. */
int st_rd_misspelt(const st_ynode *m, const st_field *fields, const char *key);

#endif

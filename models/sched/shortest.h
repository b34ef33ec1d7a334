/* The ranking srtf and srsf share (srtf.c and srsf.c say what each ranks by and why): every
 * unfinished job ranked by a key from its true remaining run time, ties by id; down the ranking
 * each job whose GPUs still fit in the cluster's total is chosen; running jobs not chosen are
 * preempted, then the chosen waiting ones start in rank order. Internal to models/sched. */
#ifndef ST_MODELS_SCHED_SHORTEST_H
#define ST_MODELS_SCHED_SHORTEST_H

#include "models/sched/policy.h"
#include "models/sched/rankset.h"

typedef struct st__ranked {
    double key;
    size_t id;
    int64_t end; /* a loose job's end once known (st_sched_end_ticks), else INT64_MIN */
} st__ranked;

/* A list of running jobs: the root of its tree (its members by end, then id), its first and
 * last members, and its place in lists. Together, as srsf indexes its lists by GPU count: a few
 * of 0 .. total, whose fields in arrays of their own were a cache line each (a third of srsf's
 * cache misses in a pick). */
typedef struct st__runlist {
    size_t root, front, tail, at;
} st__runlist;

typedef struct st__shortest {
    int by_service;       /* key: remaining time x GPUs (srsf); else remaining time (srtf) */
    int live_order;       /* preempt in the order of `live` (srsf's); else in rank order (srtf's) */
    int64_t *gpus;        /* by id: its GPUs (a compact array: the jobs' records are scattered) */
    double *key;          /* by id: a waiting job's key; a loose running job's at this pick */
    int64_t *end;         /* by id: a listed running job's end (st_sched_end_ticks) */
    unsigned char *where; /* by id: which of the sets below holds it */
    st__rset wpool, rpool;
    size_t wait;                   /* the waiting jobs, by key then id */
    st__runlist *rl;               /* by list: one for srtf, one per GPU count for srsf */
    size_t *lists, n_lists;        /* the lists with members */
    int64_t list_gpus;             /* the GPUs of every list's members */
    size_t *cur;                   /* during a pick, by place in lists: members walked */
    int64_t *cur_gpus, *upto_gpus; /* their GPUs; and those up to the next waiting job */
    size_t *upto;                  /* the members up to the next waiting job */
    size_t *head;                  /* by place: its first member not walked, or stale */
    st__rset_pos *hpos;            /* and that member's place in the list's tree */
    double *head_key;              /* and that member's key */
    st__ranked *loose;             /* the other running jobs, by key then id at this pick */
    size_t n_loose, cur_loose, upto_loose;
    int64_t run_gpus, walked;   /* during a pick: the running jobs' GPUs, and those walked past */
    size_t *fresh, n_fresh;     /* arrivals since the last pick (their keys need the view) */
    st__ranked *arrived;        /* during a pick: the fresh ones keyed, by key then id; they join */
    size_t n_arrived;           /* the waiting set only when not chosen (most start at once) */
    size_t *list;               /* during a pick: the chosen waiting jobs, in rank order */
    st__ranked *victim;         /* during a pick: the running jobs to preempt */
    size_t n_victim;            /* */
    size_t *live, n_live, *pos; /* the unfinished jobs: appended, removed by swapping the last */
    int64_t now;                /* the pick's clock */
} st__shortest;

int st__shortest_configure(st__shortest *s, const st_sched_params *p, int by_service,
                           int live_order);
void st__shortest_release(st__shortest *s);
void st__shortest_arrival(st__shortest *s, const st_sched_job *job);
void st__shortest_finish(st__shortest *s, const st_sched_job *job);
void st__shortest_pick(st__shortest *s, st_sched_view *v);

#endif

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

typedef struct st__shortest {
    int by_service; /* key: remaining time x GPUs (srsf); else remaining time (srtf) */
    int live_order; /* preempt in the order of `live` (srsf's); else in rank order (srtf's) */
    const st_sched_job **job;
    double *key;          /* by id: a waiting job's key; a loose running job's at this pick */
    int64_t *end;         /* by id: a listed running job's end (st_sched_end_ticks) */
    unsigned char *where; /* by id: which of the sets below holds it */
    st__rset wpool, rpool;
    size_t wait;  /* the waiting jobs, by key then id */
    size_t *root; /* by list: its running jobs, by end then id (srsf: a list per GPU count) */
    size_t *lists, n_lists, *list_at; /* the lists with members, and each one's place there */
    size_t *tail, *front;             /* by list: its last member, and its first */
    int64_t list_gpus;                /* the GPUs of every list's members */
    size_t *cur;                      /* during a pick, by place in lists: members walked */
    int64_t *cur_gpus, *upto_gpus;    /* their GPUs; and those up to the next waiting job */
    size_t *upto;                     /* the members up to the next waiting job */
    size_t *head;                     /* by place: its first member not walked, or stale */
    st__rset_pos *hpos;               /* and that member's place in the list's tree */
    double *head_key;                 /* and that member's key */
    st__ranked *loose;                /* the other running jobs, by key then id at this pick */
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

/* Software stacks a workload can name (`software: megatron-bridge 26.04`): per framework
 * release, the attention kernel it runs on each GPU architecture and the defaults its recipes
 * turn on (overlaps, FP8 recipe, gradient precision). Each row cites where it was read
 * (software.c); docs/models/software.md tabulates them. A row only sets what the workload does
 * not state itself. */
#ifndef ST_SCENARIOS_SOFTWARE_H
#define ST_SCENARIOS_SOFTWARE_H

#include <stddef.h>

#include "models/config/config.h"
#include "models/silicon/gpu.h"

/* One setting of a row: 0 (ST_SW_KEEP) leaves strata's default or the workload's own key;
 * ST_SW(v) sets the value v (an enum's value, or 0 / 1 for a flag), so that a row names only
 * what it sets. st_sw_value gives v back. */
#define ST_SW_KEEP 0
#define ST_SW(v)   ((signed char)((v) + 1))
#define ST_SW_ON   ST_SW(1)
#define ST_SW_OFF  ST_SW(0)
static inline int st_sw_value(signed char s)
{
    return s - 1;
}

/* The architectures a row's attention is given for, in st_gpu_arch's order. */
#define ST_SW_ARCHS (0 ST_GPU_ARCHS(ST__ENUM_COUNT))

typedef struct st_software {
    const char *stack;   /* the framework, as the key names it: "megatron-bridge" */
    const char *release; /* its release, tag or date: "26.04", "0.8", "2024-04" */
    /* the attention core per st_gpu_arch (unknown, ampere, hopper, blackwell, cdna3) */
    signed char attention[ST_SW_ARCHS];
    signed char fp8_recipe;           /* with precision fp8 */
    signed char fp8_param_gather;     /* with precision fp8 */
    signed char grad_bf16;            /* parallel.grad_reduce: bf16 */
    signed char grad_collective;      /* ST_GRAD_COLL_* */
    signed char grad_accum_separate;  /* parallel.grad_accum: separate */
    signed char overlap_grad_reduce;  /* parallel.overlap_grad_reduce */
    signed char overlap_param_gather; /* with zero >= 1 */
    signed char overlap_p2p;          /* parallel.overlap_p2p */
    signed char tp_comm_overlap;      /* with sequence parallelism, or tp 1 */
    const char *source;
    short cudnn; /* appended: `cudnn` (100 x major + minor) at most what the release's container
                    ships; 0 keeps the newest sweep */
} st_software;

/* The rows in table order (stacks together, oldest release first), for listings. NULL when
 * i >= st_software_count(). */
size_t st_software_count(void);
const st_software *st_software_at(size_t i);

/* A `software:` value split into its two words, each at most 63 bytes; 0 when it is not two
 * such words (a longer word is refused whole, never cut). */
typedef struct st_software_words {
    char stack[64], release[64];
} st_software_words;
int st_software_split(const char *value, st_software_words *out);

/* The row of `stack` whose release is the newest at or before `release` (releases compare as
 * numbers between '.' and '-': "26.04.01" takes 26.04's row). Returns the row, or NULL with
 * *why set: 1 unknown stack, 2 a release that does not read as numbers, 3 a release older than
 * the stack's first row. */
const st_software *st_software_find(const char *stack, const char *release, int *why);

/* A `cudnn:` value, "MAJOR.MINOR" or "MAJOR.MINOR.PATCH" read as releases are (numbers between
 * '.'), as 100 x major + minor (9.10 -> 910); 0 when it is not one (major 1 to 9999, minor at
 * most 99). */
int st_software_cudnn(const char *text);

/* Whether stack names a row's stack; the distinct stack names in table order, for messages. */
size_t st_software_stacks(const char **names, size_t cap);

/* Set w's keys from row r that the workload's YAML did not state: `stated(ctx, key)` says
 * whether it did (key is a workload key such as "attention", or "parallel.KEY"). gpu: the GPU
 * the workload runs on (its pool's). */
void st_software_apply(const st_software *r, const st_gpu_spec *gpu, st_workload_cfg *w,
                       int (*stated)(const void *ctx, const char *key), const void *ctx);

/* The attention core the row of `software` (a workload's value, "STACK RELEASE") runs on gpu,
 * or the key's default (`flash`, the GPU's own fused kernel) where the row keeps it: what a
 * sizing search gives a workload that did not state `attention` on each GPU type it tries. */
st_attention st_software_attention(const char *software, const st_gpu_spec *gpu);

#endif

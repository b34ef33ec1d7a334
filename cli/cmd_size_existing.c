/* `strata size --existing POOL` (cli/cmd_size.c; docs/guide/sizing.md, "Growing an existing
 * fleet"): the kept pool's cluster, the GPU types searched beside it and the racks each type's
 * nodes fill. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_size_internal.h"
#include "models/config/pools.h"
#include "scenarios/reader.h"
#include "sim/utf8.h"

/* Add GPU type g to o's --gpu-types unless it is there: 0, or a usage error past MAX_AXIS. */
static int add_type(st__size_opts *o, const st_gpu_spec *g)
{
    for (size_t i = 0; i < o->n_gpu; i++)
        if (strcmp(o->gpu[i]->name, g->name) == 0)
            return 0;
    if (o->n_gpu == MAX_AXIS)
        return st_cli_usage_error("size", "--existing: more than %d GPU types to search", MAX_AXIS);
    o->gpu[o->n_gpu++] = g;
    return 0;
}

/* Under --existing POOL `kept` on cluster c whose pools have racks of their own
 * (models/config/racks.h): the rows of the kept pool's type grow it in its own racks; another
 * type's nodes fill the racks of the first pool of that type, or cluster.racks for a type no pool
 * holds, as a wing of that type would be built. */
void st__size_racks_of_types(const st_cluster_cfg *c, int kept, st_size_variant *v, size_t n)
{
    for (size_t i = 0; c->racks_by_pool && i < n; i++) {
        const char *type = v[i].gpu ? v[i].gpu->name : c->pools[kept].gpu->name;
        v[i].racks = &c->racks;
        for (int k = c->n_pools - 1; k >= 0; k--)
            if (strcmp(c->pools[k].gpu->name, type) == 0)
                v[i].racks = &c->pools[k].racks;
        if (strcmp(c->pools[kept].gpu->name, type) == 0)
            v[i].racks = &c->pools[kept].racks;
    }
}

/* --existing POOL (docs/guide/sizing.md, "Growing an existing fleet"): the pool's cluster as
 * it stands into *one (its GPU type, its nodes, the cluster's fabric) and its index into *k; o's
 * GPU types: the pool's first, then --gpu-types' or, without them, the other pools' types. 0,
 * or the exit status of a usage error. */
int st__size_existing(st__size_opts *o, const st_scn *s, st_cluster_cfg *one, int *k)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    if (c->n_pools < 1)
        return st_cli_usage_error("size",
                                  "--existing %s: %s has one GPU type; name a pool of "
                                  "its cluster.pools",
                                  o->existing, o->file);
    for (*k = 0; *k < c->n_pools && strcmp(c->pools[*k].name, o->existing); ++*k)
        ;
    if (*k == c->n_pools) {
        const char *names[64];
        size_t m = 0;
        for (int i = 0; i < c->n_pools && m < 64; i++)
            names[m++] = c->pools[i].name;
        char near[200], first[160]; /* `--existing h10`: did you mean 'h100'? */
        if (!*st_did_you_mean(o->existing, names, m, near, sizeof near))
            st_snprintf(first, sizeof first, " (its first: '%s')", c->pools[0].name);
        return st_cli_usage_error("size", "--existing: %s has no pool '%s'%s", o->file, o->existing,
                                  near[0] ? near : first);
    }
    st_pools_view(c, *k, one);
    one->nodes = c->pools[*k].nodes;
    const st_gpu_spec *given[MAX_AXIS];
    size_t n = o->n_gpu;
    memcpy(given, o->gpu, n * sizeof *given);
    o->n_gpu = 0;
    int rc = add_type(o, one->gpu);
    for (size_t i = 0; i < n && !rc; i++)
        rc = add_type(o, given[i]);
    for (int i = 0; !n && i < c->n_pools && !rc; i++)
        rc = add_type(o, c->pools[i].gpu);
    return rc;
}

/* Benchmark: the scenario loader on a chain of YAML merge keys, each mapping merging the one
 * before (`- &mK {<<: *mK-1, kK: 1}`), whose full expansion is quadratic in its length. The
 * loader must refuse it as soon as the expansion passes its limit, in time and memory linear in
 * the file: the figures should not grow with K. Each case loads in a child process, so its peak
 * RSS is its own. Prints `case: merge_chain_K lines: K ms: X max_rss_kb: Y`. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scenarios/scenario.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *merge_chain(int k_max, size_t *len)
{
    size_t cap = 64 * (size_t)k_max + 1024, n = 0;
    char *y = malloc(cap);
    if (!y)
        exit(1);
    n += (size_t)snprintf(y + n, cap - n,
                          "version: 1\nname: q\ncluster: { gpu: h100-sxm, nodes: 2 }\n"
                          "workloads:\n  - { name: ft, model: llama3-8b, gpus: 16 }\n"
                          "x:\n  - &m0 {k0: 1}\n");
    for (int k = 1; k < k_max; k++)
        n += (size_t)snprintf(y + n, cap - n, "  - &m%d {<<: *m%d, k%d: 1}\n", k, k - 1, k);
    *len = n;
    return y;
}

static void bench_chain(int k_max)
{
    size_t len = 0;
    char *y = merge_chain(k_max, &len);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_loader: fork");
        exit(1);
    }
    if (pid == 0) {
        st_diag d;
        memset(&d, 0, sizeof d);
        st_scn *s = NULL;
        st_scn_load_buffer("chain.yaml", y, len, &s, &d);
        _exit(s == NULL && d.n > 0 ? 0 : 1); /* the chain must be refused */
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_loader: merge_chain_%d was not refused\n", k_max);
        exit(1);
    }
    printf("case: merge_chain_%d lines: %d ms: %.1f max_rss_kb: %ld\n", k_max, k_max,
           1e3 * (now_s() - t0), ru.ru_maxrss);
    free(y);
}

int main(void)
{
    static const int ks[] = {5000, 10000, 20000};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        bench_chain(ks[i]);
    return 0;
}

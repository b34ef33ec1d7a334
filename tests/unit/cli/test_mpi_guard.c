/* cli/mpi_guard.c: a process one of several that a launcher started runs only where it can
 * cooperate (a build with Open MPI, under Open MPI's mpirun, `strata sweep`); everywhere else it
 * is refused with the launcher's variable named, and a lone process is never refused. */
#include <check.h>
#include <string.h>

#include "cli/cli.h"

static const char *const *g_env; /* NULL-ended pairs: name, value */

static const char *fake_env(const char *name)
{
    for (const char *const *p = g_env; p && *p; p += 2)
        if (strcmp(p[0], name) == 0)
            return p[1];
    return NULL;
}

static int refused(const char *cmd, int have_mpi, const char *const *env, char *why, size_t n)
{
    g_env = env;
    why[0] = '\0';
    return st_cli_mpi_refusal(cmd, have_mpi, fake_env, why, n);
}

START_TEST(test_two_ranks_without_mpi_are_refused)
{
    static const char *const ompi2[] = {"OMPI_COMM_WORLD_SIZE", "2", NULL};
    char why[512];
    ck_assert(refused("sweep", 0, ompi2, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "OMPI_COMM_WORLD_SIZE=2"));
    ck_assert_ptr_nonnull(strstr(why, "built without MPI"));
    ck_assert(refused("run", 0, ompi2, why, sizeof why));
    static const char *const pmi4[] = {"PMI_SIZE", "4", NULL};
    ck_assert(refused("sweep", 0, pmi4, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "PMI_SIZE=4"));
}
END_TEST

START_TEST(test_with_mpi_only_sweep_under_open_mpi_runs)
{
    static const char *const ompi2[] = {"OMPI_COMM_WORLD_SIZE", "2", NULL};
    static const char *const mv2[] = {"MV2_COMM_WORLD_SIZE", "3", NULL};
    char why[512];
    ck_assert(!refused("sweep", 1, ompi2, why, sizeof why));
    ck_assert(refused("run", 1, ompi2, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "only `strata sweep`"));
    ck_assert(refused("sweep", 1, mv2, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "MV2_COMM_WORLD_SIZE=3"));
}
END_TEST

START_TEST(test_a_lone_process_is_never_refused)
{
    static const char *const none[] = {NULL};
    static const char *const one[] = {"OMPI_COMM_WORLD_SIZE", "1", "PMI_SIZE", "1", NULL};
    static const char *const junk[] = {"PMI_SIZE", "x", NULL};
    char why[512];
    for (int mpi = 0; mpi < 2; mpi++) {
        ck_assert(!refused("sweep", mpi, none, why, sizeof why));
        ck_assert(!refused("run", mpi, one, why, sizeof why));
        ck_assert(!refused("size", mpi, junk, why, sizeof why));
    }
}
END_TEST

Suite *mpi_guard_suite(void)
{
    Suite *s = suite_create("mpi_guard");
    TCase *tc = tcase_create("mpi_guard");
    tcase_add_test(tc, test_two_ranks_without_mpi_are_refused);
    tcase_add_test(tc, test_with_mpi_only_sweep_under_open_mpi_runs);
    tcase_add_test(tc, test_a_lone_process_is_never_refused);
    suite_add_tcase(s, tc);
    return s;
}

/* Atomic report writes (cli/write_file.c): a signal that ends the process while the temporary
 * file is being written removes it, for every signal whose default action ends the process and
 * that a shell or a pipe sends: SIGINT, SIGTERM, SIGHUP, SIGQUIT (Ctrl-\) and SIGPIPE (a
 * reader that went away). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, kill */
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

/* Large enough that the write and its fsync outlast the parent's poll (a few hundred
 * microseconds) by orders of magnitude. */
#define BIG (256u << 20)

/* How many names in dir start with "report.json.tmp.". */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, "report.json.tmp.", 16) == 0;
    closedir(d);
    return n;
}

/* Fork a writer of a BIG report to dir/report.json (path), the child ignoring sig where `ignore`,
 * send it sig once its temporary file is there, and return how it ended (waitpid's status).
 * The child exits 0 when the write succeeded, 3 when it failed. */
static int write_then_signal(char *dir, char *path, size_t n, int sig, int ignore)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, n, "%s/report.json", dir);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (ignore)
            signal(sig, SIG_IGN);
        char *data = malloc(BIG), why[256];
        memset(data, 'x', BIG);
        _exit(st_cli_write_atomic(path, data, BIG, why, sizeof why) == 0 ? 0 : 3);
    }
    struct timespec nap = {0, 100000};
    while (!temporaries(dir))
        nanosleep(&nap, NULL);
    kill(pid, sig);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return status;
}

static void signal_mid_write(int sig)
{
    char dir[] = "/tmp/strata-write-XXXXXX", path[64];
    int status = write_then_signal(dir, path, sizeof path, sig, 0);
    /* finished before the signal (an exit): the check fails */
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sig,
                  "the writer was not ended by signal %d", sig);
    ck_assert_int_eq(temporaries(dir), 0);
    ck_assert_int_ne(access(path, F_OK), 0); /* nothing half-written took the name */
    rmdir(dir);
}

/* A signal the process ignores (nohup's SIGHUP, SIGINT and SIGQUIT of a job a shell started in
 * the background) stays ignored while a report is written: the writer finishes, the report whole.
 */
static void ignored_signal_mid_write(int sig)
{
    char dir[] = "/tmp/strata-write-XXXXXX", path[64];
    int status = write_then_signal(dir, path, sizeof path, sig, 1);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "an ignored signal %d ended or failed the writer", sig);
    ck_assert_int_eq(temporaries(dir), 0);
    ck_assert_int_eq(access(path, F_OK), 0);
    unlink(path);
    rmdir(dir);
}

START_TEST(test_an_ignored_signal_mid_write_stays_ignored)
{
    static const int sigs[] = {SIGINT, SIGHUP, SIGQUIT, SIGPIPE};
    ignored_signal_mid_write(sigs[_i]);
}
END_TEST

START_TEST(test_a_signal_mid_write_leaves_no_temporary_file)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    signal_mid_write(sigs[_i]);
}
END_TEST

Suite *write_file_suite(void)
{
    Suite *s = suite_create("write_file");
    TCase *tc = tcase_create("signals");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_a_signal_mid_write_leaves_no_temporary_file, 0, 5);
    tcase_add_loop_test(tc, test_an_ignored_signal_mid_write_stays_ignored, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}

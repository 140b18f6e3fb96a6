/* Target handling on real temporary files: what is refused, what is created, how each
 * run opens it, and that cleanup removes only vbench's own file. */
#include "vb_test.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vb_target.h"

static char dir[256];
static char path[512];
static char err[1024];
static struct vb_config cfg;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/vbench-test-target.XXXXXX");
	assert_non_null(mkdtemp(dir));
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 4096;
	cfg.count_blocks = 4;
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_new_path_created_and_planned_without_o_trunc(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	struct stat st;
	(void)state;
	snprintf(path, sizeof path, "%s/new.img", dir);
	cfg.target_path = path;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_int_equal(t.kind, VB_TGT_NEWFILE);
	assert_true(t.created);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	memset(&plan, 0, sizeof plan);
	vb_target_plan(&t, &cfg, true, &plan);
	assert_int_equal(plan.open_flags & O_TRUNC, 0); /* emptied only after the check */
	assert_int_equal(plan.open_flags & O_CREAT, 0);
	assert_true(plan.truncate);
	assert_true(plan.check_identity);
	assert_true(plan.dev == st.st_dev && plan.ino == st.st_ino);
	assert_string_equal(vb_target_note(&t, err, sizeof err), "created, removed at the end");
	vb_target_cleanup(&t);
	assert_int_not_equal(lstat(path, &st), 0);
}

static void test_kept_file_in_a_directory_is_named(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.target_path = dir;
	cfg.keep = true;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_true(t.created && t.keep);
	char note[4200];
	const char *text = vb_target_note(&t, note, sizeof note);
	assert_non_null(strstr(text, "kept as "));
	assert_non_null(strstr(text, t.path));
	assert_int_equal(access(t.path, F_OK), 0);
	vb_target_cleanup(&t);
	assert_int_equal(access(t.path, F_OK), 0); /* kept */
}

static void test_cleanup_spares_a_replaced_file(void **state)
{
	struct vb_target t;
	char moved[600];
	(void)state;
	snprintf(path, sizeof path, "%s/mine.img", dir);
	snprintf(moved, sizeof moved, "%s/other", dir);
	cfg.target_path = path;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	/* Someone replaces the created file with their own under the same name. */
	write_file(moved, "theirs\n");
	assert_int_equal(rename(moved, path), 0);
	vb_target_cleanup(&t);
	assert_int_equal(access(path, F_OK), 0);
}

static void test_existing_file_refused_then_forced(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	(void)state;
	snprintf(path, sizeof path, "%s/data", dir);
	write_file(path, "precious\n");
	cfg.target_path = path;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 2);
	assert_non_null(strstr(err, "never overwrites a file it did not create"));
	cfg.force = true;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_int_equal(t.kind, VB_TGT_EXISTING);
	assert_false(t.created);
	memset(&plan, 0, sizeof plan);
	vb_target_plan(&t, &cfg, true, &plan);
	assert_true(plan.truncate && plan.check_identity);
	vb_target_cleanup(&t);
	assert_int_equal(access(path, F_OK), 0); /* never removed */
}

static void test_links_and_fifos_refused(void **state)
{
	struct vb_target t;
	char target[600];
	(void)state;
	snprintf(target, sizeof target, "%s/real", dir);
	write_file(target, "x\n");
	snprintf(path, sizeof path, "%s/link", dir);
	assert_int_equal(symlink(target, path), 0);
	cfg.target_path = path;
	cfg.force = true;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 2);
	assert_non_null(strstr(err, "symbolic link"));
	snprintf(path, sizeof path, "%s/hard", dir);
	assert_int_equal(link(target, path), 0);
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 2);
	assert_non_null(strstr(err, "hard links"));
	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 2);
	assert_non_null(strstr(err, "FIFO"));
}

static void test_link_to_a_directory_is_accepted(void **state)
{
	struct vb_target t;
	char sub[600];
	(void)state;
	snprintf(sub, sizeof sub, "%s/real-dir", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof path, "%s/dir-link", dir);
	assert_int_equal(symlink(sub, path), 0);
	cfg.target_path = path;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_int_equal(t.kind, VB_TGT_DIR);
}

static void test_directory_gets_anonymous_or_per_run_files(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	(void)state;
	cfg.target_path = dir;
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_int_equal(t.kind, VB_TGT_DIR);
	assert_true(t.use_tmpfile || t.per_run_name);
	assert_false(t.created);
	memset(&plan, 0, sizeof plan);
	vb_target_plan(&t, &cfg, true, &plan);
	assert_true(plan.defer_release);
	if (t.per_run_name)
		assert_true(plan.unlink_after_open && (plan.open_flags & O_EXCL));
	/* Nothing was left in the directory by the checks. */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_null_device_allowed(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.target_path = "/dev/null";
	assert_int_equal(vb_target_prepare(&t, &cfg, err, sizeof err), 0);
	assert_int_equal(t.kind, VB_TGT_CHARDEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_path_created_and_planned_without_o_trunc,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kept_file_in_a_directory_is_named, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cleanup_spares_a_replaced_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_existing_file_refused_then_forced, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_links_and_fifos_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_to_a_directory_is_accepted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_gets_anonymous_or_per_run_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_null_device_allowed, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The output files (--csv-append, --trace), on real temporary files: a file this session
 * created and wrote nothing to goes at the close, only while its name still holds it; a
 * file that existed, even empty, is never removed; a file removed while open is not
 * written to without a word. */
#include "vb_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/vb_csvfile.h"

static char dir[64], path[128];
static struct vb_err err;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/vbench-test-csvfile.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/runs.csv", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[200];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void append(struct vb_csvfile *cf, const char *text, enum vb_status want)
{
	struct vb_buf header, row;
	vb_buf_init(&header);
	vb_buf_init(&row);
	vb_buf_puts(&header, "label,run\r\n");
	vb_buf_puts(&row, text);
	assert_int_equal(vb_csvfile_append(cf, &header, &row, &err), want);
	vb_buf_free(&header);
	vb_buf_free(&row);
}

static void test_new_file_with_no_row_goes(void **state)
{
	struct vb_csvfile cf;
	(void)state;
	assert_int_equal(vb_csvfile_open(&cf, "--csv-append", path, &err), VB_OK);
	assert_true(cf.created);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(vb_csvfile_close(&cf, &err), VB_OK);
	assert_int_not_equal(access(path, F_OK), 0);
	/* with a row it stays */
	assert_int_equal(vb_csvfile_open(&cf, "--csv-append", path, &err), VB_OK);
	append(&cf, "x,1\r\n", VB_OK);
	assert_int_equal(vb_csvfile_close(&cf, &err), VB_OK);
	assert_int_equal(access(path, F_OK), 0);
}

static void test_existing_empty_file_stays(void **state)
{
	struct vb_csvfile cf;
	FILE *f;
	(void)state;
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(vb_csvfile_open(&cf, "--csv-append", path, &err), VB_OK);
	assert_false(cf.created);
	assert_int_equal(vb_csvfile_close(&cf, &err), VB_OK);
	assert_int_equal(access(path, F_OK), 0);
}

/* The file was moved and another took its name: both are left alone, and said so. */
static void test_replaced_name_left_alone(void **state)
{
	struct vb_csvfile cf;
	char moved[160];
	FILE *f;
	(void)state;
	assert_int_equal(vb_csvfile_open(&cf, "--csv-append", path, &err), VB_OK);
	snprintf(moved, sizeof moved, "%s/moved", dir);
	assert_int_equal(rename(path, moved), 0);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(vb_csvfile_close(&cf, &err), VB_E_IO);
	if (strstr(err.msg, "runs.csv no longer names the empty file vbench created") == NULL)
		fail_msg("'%s'", err.msg);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(access(moved, F_OK), 0);
}

/* Removed while open (by another vbench that created it and kept nothing): a row
 * written then would be lost, so the append fails instead. */
static void test_append_to_a_removed_file_fails(void **state)
{
	struct vb_csvfile cf;
	(void)state;
	assert_int_equal(vb_csvfile_open(&cf, "--csv-append", path, &err), VB_OK);
	assert_int_equal(unlink(path), 0);
	append(&cf, "x,1\r\n", VB_E_IO);
	assert_non_null(strstr(err.msg, "the file was removed while vbench had it open"));
	vb_csvfile_close(&cf, &err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_new_file_with_no_row_goes),
		T(test_existing_empty_file_stays),
		T(test_replaced_name_left_alone),
		T(test_append_to_a_removed_file_fails),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

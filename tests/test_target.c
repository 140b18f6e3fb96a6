/* Target handling: on real temporary files through the platform's ops (what is refused,
 * what is created, how each run gets it, that cleanup removes only vbench's own file,
 * whatever happens to the path meanwhile), and on a fake ops table for disks (in use,
 * too small, not a disk) and for the pure path and size helpers. */
#include "vb_test.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fake_io.h"
#include "os/vb_os.h"
#include "bench/vb_plan.h"
#include "bench/vb_target.h"

static char dir[64];
static char path[512];
static struct vb_err err;
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
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.moved' '%s.other'", dir, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static enum vb_status prepare(struct vb_target *t)
{
	return vb_target_prepare(t, &cfg, &vb_os_io, &err);
}

static void expect_refused(struct vb_target *t, const char *why)
{
	assert_int_equal(prepare(t), VB_E_SETUP);
	if (strstr(err.msg, why) == NULL)
		fail_msg("'%s' lacks '%s'", err.msg, why);
}

static void test_new_path_created_and_planned_without_o_trunc(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	struct stat st;
	char note[64];
	(void)state;
	snprintf(path, sizeof path, "%s/new.img", dir);
	cfg.target_path = path;
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_NEWFILE);
	assert_true(t.created);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	vb_plan_build(&cfg, &t, 1, true, &plan);
	assert_int_equal(plan.acquire, VB_ACQ_NAMED);
	assert_int_equal(plan.req.kind, VB_OPEN_EXISTING);   /* never O_CREAT or O_TRUNC */
	assert_true(plan.truncate);                          /* emptied after the check */
	assert_true(plan.check_in_use);
	assert_true(plan.id.dev == (uint64_t)st.st_dev && plan.id.ino == (uint64_t)st.st_ino);
	assert_string_equal(vb_target_note(&t, note, sizeof note), "created, removed at the end");
	vb_target_cleanup(&t);
	assert_int_not_equal(lstat(path, &st), 0);
}

/* The file vbench created, when it cannot be removed at the end, is named with why. */
static void test_cleanup_names_what_is_left(void **state)
{
	struct vb_target t;
	char buf[4400], other[sizeof path + 16];
	FILE *f;
	(void)state;
	snprintf(path, sizeof path, "%s/left.img", dir);
	cfg.target_path = path;
	assert_int_equal(prepare(&t), VB_OK);
	vb_target_cleanup(&t);
	assert_null(vb_target_cleanup_problem(&t, buf, sizeof buf));
	/* another file took its name: left alone, and said so */
	assert_int_equal(prepare(&t), VB_OK);
	snprintf(other, sizeof other, "%s/other", dir);
	assert_non_null(f = fopen(other, "w"));
	fclose(f);
	assert_int_equal(rename(other, path), 0);
	vb_target_cleanup(&t);
	assert_non_null(vb_target_cleanup_problem(&t, buf, sizeof buf));
	assert_non_null(strstr(buf, "left.img no longer names the file vbench created"));
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(unlink(path), 0);
	/* removed by someone else */
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(unlink(path), 0);
	vb_target_cleanup(&t);
	assert_non_null(vb_target_cleanup_problem(&t, buf, sizeof buf));
	assert_non_null(strstr(buf, "was removed or renamed by someone else"));
}

static void test_kept_file_in_a_directory_is_named(void **state)
{
	struct vb_target t;
	char note[4200], kept[600];
	(void)state;
	cfg.target_path = dir;
	cfg.keep = true;
	assert_int_equal(prepare(&t), VB_OK);
	assert_true(t.created && t.keep);
	const char *text = vb_target_note(&t, note, sizeof note);
	snprintf(kept, sizeof kept, "%s/%s", dir, t.name);
	/* with its directory: a bare name is no path from where vbench was run */
	assert_non_null(strstr(text, "kept as "));
	assert_non_null(strstr(text, kept));
	assert_int_equal(access(kept, F_OK), 0);
	/* the file the runs write, which errors name */
	char written[4400];
	assert_non_null(vb_target_written(&t, written, sizeof written));
	assert_string_equal(written, kept);
	vb_target_cleanup(&t);
	assert_int_equal(access(kept, F_OK), 0); /* kept */
	/* an anonymous file has no name of its own: the directory is named */
	cfg.keep = false;
	assert_int_equal(prepare(&t), VB_OK);
	assert_null(vb_target_written(&t, written, sizeof written));
	vb_target_cleanup(&t);
	assert_int_equal(unlink(kept), 0);
}

static void test_cleanup_spares_a_replaced_file(void **state)
{
	struct vb_target t;
	char moved[600];
	(void)state;
	snprintf(path, sizeof path, "%s/mine.img", dir);
	snprintf(moved, sizeof moved, "%s/other", dir);
	cfg.target_path = path;
	assert_int_equal(prepare(&t), VB_OK);
	/* Someone replaces the created file with their own under the same name. */
	write_file(moved, "theirs\n");
	assert_int_equal(rename(moved, path), 0);
	vb_target_cleanup(&t);
	assert_int_equal(access(path, F_OK), 0);
}

/* The directory is held open: renaming it, or putting a link to another directory in
 * its place, changes nothing about what the cleanup removes. */
static void test_cleanup_follows_the_directory_not_its_path(void **state)
{
	struct vb_target t;
	char moved[600], other[600], victim[700], own[700];
	(void)state;
	snprintf(path, sizeof path, "%s/mine.img", dir);
	snprintf(moved, sizeof moved, "%s.moved", dir);
	snprintf(other, sizeof other, "%s.other", dir);
	snprintf(victim, sizeof victim, "%s/mine.img", other);
	snprintf(own, sizeof own, "%s/mine.img", moved);
	cfg.target_path = path;
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(mkdir(other, 0700), 0);
	write_file(victim, "not vbench's\n");
	assert_int_equal(rename(dir, moved), 0);
	assert_int_equal(symlink(other, dir), 0);   /* the old path now leads elsewhere */
	vb_target_cleanup(&t);
	assert_int_equal(access(victim, F_OK), 0);  /* the other directory's file is left */
	assert_int_not_equal(access(own, F_OK), 0); /* vbench's own file is gone */
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(rename(moved, dir), 0);
}

static void test_existing_file_refused_then_forced(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	(void)state;
	snprintf(path, sizeof path, "%s/data", dir);
	write_file(path, "precious\n");
	cfg.target_path = path;
	expect_refused(&t, "never overwrites a file it did not create");
	cfg.force = true;
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_EXISTING);
	assert_false(t.created);
	vb_plan_build(&cfg, &t, 1, true, &plan);
	assert_true(plan.truncate && plan.acquire == VB_ACQ_NAMED);
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
	expect_refused(&t, "symbolic link");
	snprintf(path, sizeof path, "%s/dangling", dir);
	assert_int_equal(symlink("/nonexistent/vbench-target", path), 0);
	expect_refused(&t, "symbolic link");
	assert_int_not_equal(access("/nonexistent/vbench-target", F_OK), 0);
	snprintf(path, sizeof path, "%s/hard", dir);
	assert_int_equal(link(target, path), 0);
	expect_refused(&t, "hard links");
	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	expect_refused(&t, "FIFO");
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
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_DIR);
	vb_target_cleanup(&t);
}

static void test_directory_gets_anonymous_or_per_run_files(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	(void)state;
	cfg.target_path = dir;
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_DIR);
	assert_true(t.anon || t.per_run_name);
	assert_false(t.created);
	vb_plan_build(&cfg, &t, 1, true, &plan);
	assert_true(plan.defer_release);
	if (t.per_run_name) {
		assert_int_equal(plan.acquire, VB_ACQ_NEWNAME);
		assert_int_equal(plan.req.kind, VB_OPEN_CREATE);
		assert_non_null(strstr(plan.name, "vbench-"));
	} else {
		assert_int_equal(plan.acquire, VB_ACQ_ANON);
	}
	/* Nothing was left in the directory by the checks. */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
	assert_int_equal(system(cmd), 0);
	vb_target_cleanup(&t);
}

static void test_null_device_is_a_sink(void **state)
{
	struct vb_target t;
	struct vb_write_plan plan;
	(void)state;
	cfg.target_path = "/dev/null";
	assert_int_equal(prepare(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_SINK);
	vb_plan_build(&cfg, &t, 1, true, &plan);
	assert_int_equal(plan.acquire, VB_ACQ_SINK);
	assert_true(plan.sync_may_fail);
	vb_target_cleanup(&t);
}

static void test_missing_directory_named(void **state)
{
	struct vb_target t;
	(void)state;
	snprintf(path, sizeof path, "%s/no/such/file", dir);
	cfg.target_path = path;
	expect_refused(&t, "its directory does not exist");
	snprintf(path, sizeof path, "%s/nodir/", dir);
	expect_refused(&t, "does not exist");
}

/* ---- disks, on the fake --------------------------------------------------------- */

static struct fake fk;
static struct vb_io_ops fops;

static int setup_disk(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	fops = fake_ops(&fk);
	vb_config_defaults(&cfg);
	cfg.bs_bytes = 1 << 20;
	cfg.count_blocks = 16;
	cfg.target_path = "/dev/vdz";
	fk.not_dir = cfg.target_path;
	fk.named.type = VB_FT_BLK;
	fk.named.rdev = 0xfd10;
	fk.file = fk.named;
	fk.disk.size_bytes = 64 << 20;
	fk.disk.sector_bytes = 512;
	return 0;
}

static enum vb_status prepare_fake(struct vb_target *t)
{
	return vb_target_prepare(t, &cfg, &fops, &err);
}

static void test_disk_needs_force(void **state)
{
	struct vb_target t;
	(void)state;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "add --force"));
	assert_int_equal(fk.opens, 0);   /* refused before it was opened */
	cfg.force = true;
	assert_int_equal(prepare_fake(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_DISK);
	assert_int_equal(t.held_fd, FAKE_FD);
	assert_true(fk.req.exclusive);
	vb_target_cleanup(&t);
}

static void test_disk_in_use_refused_even_with_force(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.in_use = 1;
	fk.in_use_text = "loop device loop1 is backed by it";
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "in use: loop device loop1 is backed by it"));
	assert_int_equal(fk.writes, 0);
	/* refused before the write open, which may itself change what shows it in use
	 * (FreeBSD's g_access spoils idle devices made of the disk) */
	assert_int_equal(fk.opens, 0);
	assert_int_equal(fk.closes, 1);   /* its directory is let go again */
	fk.in_use = -1;
	fk.in_use_text = "cannot tell whether it is in use: no /sys/dev/block/253:16";
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "cannot tell"));
}

/* A disk held exclusively (FreeBSD: GEOM's EPERM) is said to be, and by what when the
 * platform can tell. */
static void test_disk_held_exclusively_named(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.open_err = EPERM;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "the disk is held exclusively"));
	fk.in_use = 1;
	fk.in_use_text = "ada1p2 is held by GEOM class ZFS::VDEV (zfs::vdev, access r1w1e1)";
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "in use: ada1p2 is held by GEOM class ZFS::VDEV"));
	assert_int_equal(fk.writes, 0);
}

/* An existing file in use is refused before it is ever opened for writing: on an
 * overlay that open alone copies the file into the upper layer. */
static void test_file_in_use_refused_before_a_write_open(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.target_path = "/srv/data.img";
	fk.not_dir = cfg.target_path;
	fk.named.type = VB_FT_REG;
	fk.named.nlink = 1;
	fk.file = fk.named;
	cfg.force = true;
	fk.in_use = 1;
	fk.in_use_text = "process 42 holds a FLOCK lock on it";
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "FLOCK"));
	assert_false(fk.write_open_before_check);
	vb_target_cleanup(&t);
}

/* A read-only disk opens for writing and fails only at its first write: refused at
 * setup, before anything is written. */
static void test_read_only_disk_refused(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.disk.read_only = true;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "/dev/vdz is read-only"));
	assert_int_equal(fk.writes, 0);
	fk.disk.read_only = false;
	assert_int_equal(prepare_fake(&t), VB_OK);
	vb_target_cleanup(&t);
}

static void test_disk_smaller_than_a_run_refused(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.disk.size_bytes = 8 << 20;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "less than the 16777216 bytes of one run"));
	assert_non_null(strstr(err.msg, "; nothing was written"));
}

static void test_disk_replaced_while_examined(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.file.rdev = 0x0708;   /* the node now stands for another device */
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "changed while vbench examined it"));
}

/* A file vbench created and then refused (here: bs not aligned for --direct) goes, even
 * with --keep, since nothing was written; when it cannot be removed, it is named. */
static void test_refused_new_file_removed_or_named(void **state)
{
	struct vb_target t;
	char buf[4400];
	(void)state;
	cfg.target_path = "/fake/dir";
	fk.not_dir = NULL;
	fk.named.type = fk.file.type = VB_FT_REG;
	fk.named.dev = fk.file.dev = 8;
	fk.named.ino = fk.file.ino = 12;
	cfg.direct = cfg.keep = true;
	cfg.bs_bytes = 1000;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "512-byte logical block size"));
	assert_int_equal(fk.unlinks, 1);
	assert_null(vb_target_cleanup_problem(&t, buf, sizeof buf));
	fk.unlink_err = EPERM;   /* an append-only directory */
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_int_equal(fk.unlinks, 2);
	assert_non_null(vb_target_cleanup_problem(&t, buf, sizeof buf));
	if (strstr(buf, "/fake/dir/vbench-") == NULL ||
	    strstr(buf, ".tmp, the file vbench created, could not be removed: ") == NULL)
		fail_msg("'%s'", buf);
}

static void test_direct_alignment_suggests_a_power_of_two(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	cfg.direct = true;
	cfg.bs_bytes = 1000000;   /* bs=1MB */
	cfg.count_blocks = 4;
	fk.disk.sector_bytes = 4096;
	assert_int_equal(prepare_fake(&t), VB_E_SETUP);
	assert_non_null(strstr(err.msg, "4096-byte logical block size"));
	assert_non_null(strstr(err.msg, "(e.g. bs=1M)"));
}

static void test_character_device_not_a_sink(void **state)
{
	struct vb_target t;
	(void)state;
	cfg.force = true;
	fk.named.type = fk.file.type = VB_FT_CHR;
	if (vb_os_caps()->chr_disks) {
		fk.not_a_disk = true;
		assert_int_equal(prepare_fake(&t), VB_E_SETUP);
		assert_non_null(strstr(err.msg, "not a disk"));
	} else {
		assert_int_equal(prepare_fake(&t), VB_E_SETUP);
		assert_non_null(strstr(err.msg, "data sink"));
		assert_int_equal(fk.opens, 0);   /* decided on before it was opened */
	}
	fk.sink = true;
	assert_int_equal(prepare_fake(&t), VB_OK);
	assert_int_equal(t.kind, VB_TGT_SINK);
}

/* ---- the pure helpers --------------------------------------------------------------- */

static void test_path_split(void **state)
{
	char d[64], b[64];
	(void)state;
	assert_true(vb_os_path_split("a/b/c.img", d, sizeof d, b, sizeof b));
	assert_string_equal(d, "a/b");
	assert_string_equal(b, "c.img");
	assert_true(vb_os_path_split("file", d, sizeof d, b, sizeof b));
	assert_string_equal(d, ".");
	assert_string_equal(b, "file");
	assert_true(vb_os_path_split("/top", d, sizeof d, b, sizeof b));
	assert_string_equal(d, "/");
	assert_string_equal(b, "top");
	assert_false(vb_os_path_split("dir/", d, sizeof d, b, sizeof b));
	assert_false(vb_os_path_split("", d, sizeof d, b, sizeof b));
	assert_false(vb_os_path_split("x/averyveryverylongname", d, sizeof d, b, 8));
}

/* Finding 9 of issue 22: a raw disk (a BSD character device) takes whole sectors only,
 * with or without --direct; a block device or a file without --direct takes any bs. */
static void test_raw_disk_whole_sectors(void **state)
{
	struct vb_target t;
	struct vb_config c = cfg;
	(void)state;
	memset(&t, 0, sizeof t);
	t.kind = VB_TGT_DISK;
	t.id.type = VB_FT_CHR;
	c.direct = false;
	assert_true(vb_target_whole_sectors(&t, &c));
	t.id.type = VB_FT_BLK;
	assert_false(vb_target_whole_sectors(&t, &c));
	t.kind = VB_TGT_EXISTING;
	t.id.type = VB_FT_REG;
	assert_false(vb_target_whole_sectors(&t, &c));
	c.direct = true;
	assert_true(vb_target_whole_sectors(&t, &c));
}

static void test_direct_suggestion(void **state)
{
	char s[32];
	(void)state;
	vb_direct_suggestion(1000000, 512, s, sizeof s);
	assert_string_equal(s, "1M");
	vb_direct_suggestion(1000, 512, s, sizeof s);
	assert_string_equal(s, "1k");
	vb_direct_suggestion(4097, 512, s, sizeof s);
	assert_string_equal(s, "4k");
	vb_direct_suggestion(3000, 4096, s, sizeof s);
	assert_string_equal(s, "4k");
	vb_direct_suggestion(3000000000ULL, 512, s, sizeof s);
	assert_string_equal(s, "2G");
	vb_direct_suggestion(100, 512, s, sizeof s);
	assert_string_equal(s, "512");
	vb_direct_suggestion(1000, 0, s, sizeof s);   /* no alignment known: no division by 0 */
	assert_string_equal(s, "1k");
}

/* What the message of an abandoned session says is left: never "no name" for a file that
 * has one, never a removal asked of a file that is kept or was not vbench's. */
static void test_leftover_sentences(void **state)
{
	struct vb_target t;
	char buf[512];
	(void)state;

	memset(&t, 0, sizeof t);
	t.shown = "/mnt/x";
	t.kind = VB_TGT_NEWFILE;
	t.created = true;
	assert_string_equal(vb_target_leftover(&t, NULL, buf, sizeof buf),
			    "/mnt/x, the file vbench created, is left behind");
	t.keep = true;
	assert_string_equal(vb_target_leftover(&t, NULL, buf, sizeof buf),
			    "/mnt/x is kept, as asked, but its last run did not finish");
	t.kind = VB_TGT_DIR;
	snprintf(t.name, sizeof t.name, "vbench-abc.tmp");
	assert_string_equal(vb_target_leftover(&t, NULL, buf, sizeof buf),
			    "/mnt/x/vbench-abc.tmp is kept, as asked, but its last run did not finish");
	t.created = t.keep = false;
	t.name[0] = '\0';
	t.per_run_name = true;
	assert_non_null(strstr(vb_target_leftover(&t, "vbench-r1.tmp", buf, sizeof buf),
			       "/mnt/x/vbench-r1.tmp, the file of the stuck run, may be left"));
	t.per_run_name = false;
	assert_non_null(strstr(vb_target_leftover(&t, NULL, buf, sizeof buf), "has no name"));
	t.kind = VB_TGT_EXISTING;
	assert_string_equal(vb_target_leftover(&t, NULL, buf, sizeof buf),
			    "/mnt/x holds what the unfinished run wrote");
	t.kind = VB_TGT_SINK;
	assert_string_equal(vb_target_leftover(&t, NULL, buf, sizeof buf),
			    "nothing is left behind");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leftover_sentences),
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define D(name) cmocka_unit_test_setup(name, setup_disk)
		T(test_new_path_created_and_planned_without_o_trunc),
		T(test_cleanup_names_what_is_left),
		T(test_kept_file_in_a_directory_is_named),
		T(test_cleanup_spares_a_replaced_file),
		T(test_cleanup_follows_the_directory_not_its_path),
		T(test_existing_file_refused_then_forced),
		T(test_links_and_fifos_refused),
		T(test_link_to_a_directory_is_accepted),
		T(test_directory_gets_anonymous_or_per_run_files),
		T(test_null_device_is_a_sink),
		T(test_missing_directory_named),
		D(test_disk_needs_force),
		D(test_disk_in_use_refused_even_with_force),
		D(test_disk_held_exclusively_named),
		D(test_file_in_use_refused_before_a_write_open),
		D(test_read_only_disk_refused),
		D(test_disk_smaller_than_a_run_refused),
		D(test_disk_replaced_while_examined),
		D(test_refused_new_file_removed_or_named),
		D(test_direct_alignment_suggests_a_power_of_two),
		D(test_character_device_not_a_sink),
		cmocka_unit_test(test_path_split),
		cmocka_unit_test(test_raw_disk_whole_sectors),
		cmocka_unit_test(test_direct_suggestion),
#undef T
#undef D
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

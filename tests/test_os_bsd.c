/* The pure rules of the BSD backend, checked wherever the tests run: disk names and
 * their drivers, partitions, slices and labels to their disk, filesystem names, and the
 * in-use decision fed with what getmntinfo, swap and GEOM would report. */
#include "os/vb_bsd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vb_test.h"
#include "common/vb_escape.h"

static void test_driver_names(void **state)
{
	static const char *const cases[][2] = {
		{"vtbd0", "virtio_blk"}, {"vtbd1p2", "virtio_blk"}, {"vbd0s1d", "virtio_blk"},
		{"xbd0", "xbd"}, {"ada0p2", "ata"}, {"ad4s1a", "ata"}, {"wd0a", "ata"},
		{"rwd0d", "ata"}, {"da0", "scsi"}, {"sd0a", "scsi"}, {"rsd1c", "scsi"},
		{"ld0e", "ld"}, {"nvd0", "nvme"}, {"nda0p1", "nvme"}, {"nvme0s1a", "nvme"},
		{"md0", "md"}, {"vnd0a", "vnd"}, {"/dev/ada1", "ata"}, {"dk3", "dk"},
		{"disk1s1", "unknown"}, {"r", "unknown"}, {"", "unknown"}, {"0", "unknown"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(vb_os_bsd_driver_for_name(cases[i][0]), cases[i][1]) != 0)
			fail_msg("%s: %s, want %s", cases[i][0], vb_os_bsd_driver_for_name(cases[i][0]),
				 cases[i][1]);
	assert_string_equal(vb_os_bsd_driver_for_name(NULL), "unknown");
}

/* Partitions (GPT p2), slices (s1) with their labels (s1a), label partitions (a) and
 * raw twins (r...) all lie on one whole disk. */
static void test_partition_to_disk(void **state)
{
	static const char *const cases[][2] = {
		{"vtbd0p2", "vtbd0"}, {"ada0s1a", "ada0"}, {"ada0s1", "ada0"}, {"ada0", "ada0"},
		{"wd0a", "wd0"}, {"rwd1d", "wd1"}, {"sd2e", "sd2"}, {"da10p15", "da10"},
		{"vbd0s1d", "vbd0"}, {"nvd0p1", "nvd0"}, {"nda1", "nda1"}, {"ld0", "ld0"},
		{"/dev/ada3p4", "ada3"}, {"nvme0s1a", "nvme0"},
	};
	static const char *const not_disks[] = {
		"", "ada", "gpt/rootfs", "zroot/ROOT", "ada0x", "ada0s", "ada0s1az", "tmpfs",
		"vtbd0q1", "diskid/DISK-1",
		/* attack-ports 3: never by the last component of a path */
		"zvol/tank/vm/ada1", "/dev/zvol/tank/vm/ada1", "tank/backup/wd0", "/tmp/ada1",
		"mapper/rwd0d",
	};
	char disk[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (!vb_os_bsd_disk_of(cases[i][0], disk, sizeof disk))
			fail_msg("%s: not a disk name", cases[i][0]);
		assert_string_equal(disk, cases[i][1]);
	}
	for (size_t i = 0; i < sizeof not_disks / sizeof not_disks[0]; i++)
		if (vb_os_bsd_disk_of(not_disks[i], disk, sizeof disk))
			fail_msg("%s taken for disk %s", not_disks[i], disk);
	assert_string_equal(vb_os_bsd_driver_for_name("zvol/tank/vm/ada1"), "unknown");
}

static void test_fs_names(void **state)
{
	static const char *const cases[][2] = {
		{"ufs", "ufs"}, {"zfs", "zfs"}, {"hammer", "hammer"}, {"hammer2", "hammer2"},
		{"ffs", "ffs"}, {"tmpfs", "tmpfs"}, {"msdosfs", "msdosfs"}, {"msdos", "msdosfs"},
		{"ext2fs", "ext2fs"}, {"nfs", "nfs"}, {"fusefs.sshfs", "fusefs.sshfs"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(vb_os_bsd_fs_name(cases[i][0]), cases[i][1]);
	assert_true(vb_os_bsd_fs_in_memory("tmpfs"));   /* issue 37: a note says it is memory */
	assert_true(vb_os_bsd_fs_in_memory("mfs"));
	assert_false(vb_os_bsd_fs_in_memory("ufs"));
	assert_false(vb_os_bsd_fs_in_memory("zfs"));
}

static const char conftxt[] =
	"0 DISK ada0 21474836480 512 hd 16 sc 63\n"
	"1 PART ada0p3 2147483648 512 i 3 o 19327401984 ty freebsd-swap\n"
	"1 PART ada0p2 19327352832 512 i 2 o 20480 ty freebsd-ufs\n"
	"2 LABEL gpt/rootfs 19327352832 512 i 0 o 0\n"
	"1 PART ada0p1 524288 512 i 1 o 20480 ty freebsd-boot\n"
	"0 DISK vtbd1 1073741824 512 hd 16 sc 63\n"
	"1 LABEL diskid/DISK-BHYVE 1073741824 512 i 0 o 0\n";

static void test_geom_names_to_disks(void **state)
{
	char disk[64];

	(void)state;
	assert_true(vb_os_bsd_geom_disk(conftxt, "gpt/rootfs", disk, sizeof disk));
	assert_string_equal(disk, "ada0");
	assert_true(vb_os_bsd_geom_disk(conftxt, "ada0p3", disk, sizeof disk));
	assert_string_equal(disk, "ada0");
	assert_true(vb_os_bsd_geom_disk(conftxt, "diskid/DISK-BHYVE", disk, sizeof disk));
	assert_string_equal(disk, "vtbd1");
	assert_true(vb_os_bsd_geom_disk(conftxt, "vtbd1", disk, sizeof disk));
	assert_string_equal(disk, "vtbd1");
	assert_false(vb_os_bsd_geom_disk(conftxt, "ada9", disk, sizeof disk));
	assert_false(vb_os_bsd_geom_disk("", "ada0", disk, sizeof disk));

	/* attack-ports 7: a line of any length is read (g_md_dumpconf writes the vnode's
	 * path, up to MAXPATHLEN); what follows it lies on its disk, not on the one before */
	char txt[4096], path[1024];
	memset(path, 'x', sizeof path - 1);
	path[0] = '/';
	path[sizeof path - 1] = '\0';
	snprintf(txt, sizeof txt, "%s0 MD md0 1073741824 512 u 0 s 512 f 0 fs 0 l 1073741824 "
		 "t vnode file %s label\n1 PART md0p1 1073741824 512 i 1 o 20480 ty freebsd-ufs "
		 "xs GPT xt 516e7cb6-6ecf-11d6-8ff8-00022d09712b\n", conftxt, path);
	assert_true(vb_os_bsd_geom_disk(txt, "md0p1", disk, sizeof disk));
	assert_string_equal(disk, "md0");
	/* a disk whose name is too long to keep: what lies on it is not placed at all */
	char part[256];
	snprintf(part, sizeof part, "%.200sp1", path + 1);
	snprintf(txt, sizeof txt, "%s0 DISK %.200s 1073741824 512 hd 16 sc 63\n"
		 "1 PART %s 1073741824 512 i 1 o 20480 ty freebsd-ufs\n", conftxt, path + 1, part);
	assert_false(vb_os_bsd_geom_disk(txt, part, disk, sizeof disk));
}

static const char confxml[] =
	"<?xml version=\"1.0\"?>\n<mesh>\n"
	" <class id=\"0x1\"><name>DISK</name>\n"
	"  <geom id=\"0x10\"><class ref=\"0x1\"/><name>ada0</name><rank>1</rank>\n"
	"   <provider id=\"0x100\"><geom ref=\"0x10\"/><mode>r2w2e5</mode><name>ada0</name>"
	"<mediasize>21474836480</mediasize></provider>\n  </geom>\n"
	"  <geom id=\"0x11\"><class ref=\"0x1\"/><name>ada1</name><rank>1</rank>\n"
	"   <provider id=\"0x101\"><geom ref=\"0x11\"/><mode>r0w1e0</mode><name>ada1</name>"
	"</provider>\n  </geom>\n </class>\n"
	" <class id=\"0x2\"><name>PART</name>\n"
	"  <geom id=\"0x20\"><class ref=\"0x2\"/><name>ada0</name><rank>2</rank>\n"
	"   <config><scheme>GPT</scheme></config>\n"
	"   <consumer id=\"0x200\"><geom ref=\"0x20\"/><provider ref=\"0x100\"/>"
	"<mode>r2w2e5</mode></consumer>\n"
	"   <provider id=\"0x201\"><geom ref=\"0x20\"/><mode>r0w0e0</mode><name>ada0p2</name>"
	"</provider>\n"
	"   <provider id=\"0x202\"><geom ref=\"0x20\"/><mode>r1w1e0</mode><name>ada0p3</name>"
	"</provider>\n  </geom>\n"
	"  <geom id=\"0x21\"><class ref=\"0x2\"/><name>ada1</name><rank>2</rank>\n"
	"   <consumer id=\"0x210\"><geom ref=\"0x21\"/><provider ref=\"0x101\"/>"
	"<mode>r0w0e0</mode></consumer>\n"
	"   <provider id=\"0x211\"><geom ref=\"0x21\"/><mode>r0w0e0</mode><name>ada1p1</name>"
	"</provider>\n  </geom>\n </class>\n"
	" <class id=\"0x3\"><name>SWAP</name>\n"
	"  <geom id=\"0x30\"><class ref=\"0x3\"/><name>swap</name><rank>3</rank>\n"
	"   <consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x202\"/>"
	"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n"
	" <class id=\"0x4\"><name>DEV</name>\n"
	"  <geom id=\"0x40\"><class ref=\"0x4\"/><name>ada1</name><rank>2</rank>\n"
	"   <consumer id=\"0x400\"><geom ref=\"0x40\"/><provider ref=\"0x101\"/>"
	"<mode>r0w1e0</mode></consumer>\n  </geom>\n </class>\n"
	"</mesh>\n";

/* xml into buf of n bytes with its first from replaced by to. */
static const char *corrupt(char *buf, size_t n, const char *xml, const char *from,
			   const char *to)
{
	const char *at = strstr(xml, from);

	assert_non_null(at);
	snprintf(buf, n, "%.*s%s%s", (int)(at - xml), xml, to, at + strlen(from));
	return buf;
}

/* GEOM: a disk with a swap partition is held (by the swap, the deepest holder); a disk
 * only vbench's own open (O_WRONLY: r0w1e0 on its device node) has is free. */
static void test_geom_consumers(void **state)
{
	char holder[256], bad[sizeof confxml + 64];

	(void)state;
	assert_int_equal(vb_os_bsd_geom_busy(confxml, "ada0", "ada0", 0, 1, holder, sizeof holder), 1);
	assert_string_equal(holder, "ada0p3 is held by GEOM class SWAP (swap, access r1w1e0)");
	assert_int_equal(vb_os_bsd_geom_busy(confxml, "ada1", "ada1", 0, 1, holder, sizeof holder), 0);
	/* a disk GEOM does not list: nothing it says is about that disk */
	assert_int_equal(vb_os_bsd_geom_busy(confxml, "ada9", "ada9", 0, 1, holder, sizeof holder),
			 -1);
	assert_string_equal(holder, "cannot tell whether it is in use: GEOM does not list ada9");
	/* an id given twice: which one a consumer means cannot be told, so neither is free */
	corrupt(bad, sizeof bad, confxml, "<provider id=\"0x101\"", "<provider id=\"0x100\"");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada1", "ada1", 0, 1, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: GEOM gives two of its parts "
			    "the id 0x100");
	/* the swap using a provider not listed: a walk by id would pass the swap by */
	corrupt(bad, sizeof bad, confxml, "<provider ref=\"0x202\"", "<provider ref=\"0x2ff\"");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 1, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: a GEOM consumer uses "
			    "provider 0x2ff, which GEOM does not list");
}

/* attack-geom: text g_conf_specific (sys/geom/geom_dump.c) would not write, each made
 * from the fixture with a swap on ada0p3, hides or may hide that swap: never free. */
static void test_geom_text_not_whole(void **state)
{
	static const char *const edits[][2] = {
		{"<provider id=\"0x202\"", "<provider xxid=\"0x202\""},    /* no id */
		{"<provider ref=\"0x202\"/>", "<provider ref=\"\"/>"},       /* an empty ref */
		{"<provider ref=\"0x202\"/>", "<provider ref = \"0x202\"/>"},
		{"<provider ref=\"0x202\"/>", "<provider ref=\"0x00000000000000000000000202\"/>"},
		{"<consumer id=\"0x300\">", "<consumer\tid=\"0x300\">"},
		{"<consumer id=\"0x300\">", "<CONSUMER id=\"0x300\">"},
		{"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n <class id=\"0x4\">",
		 "<mode>r1w4294967297e0</mode></consumer>\n  </geom>\n </class>\n <class id=\"0x4\">"},
		{"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n <class id=\"0x4\">",
		 "<mode>r1w1e00000000000000000000000000000000000001</mode></consumer>\n  </geom>\n"
		 " </class>\n <class id=\"0x4\">"},
		{"<name>SWAP</name>", "<name><![CDATA[SWAP]]></name>"},
		{"<name>SWAP</name>", ""},                                    /* a class unnamed */
		{"<name>SWAP</name>", "<name>DEV</name>"},                    /* two classes DEV */
		{"<geom id=\"0x30\"><class ref=\"0x3\"/>", "<geom id=\"0x30\"><class ref=\"0x4\"/>"},
		{"<consumer id=\"0x300\"><geom ref=\"0x30\"/>", "<consumer id=\"0x300\"><geom ref=\"0x20\"/>"},
		{" <class id=\"0x3\"><name>SWAP</name>\n", ""},               /* a geom outside */
		{"<rank>3</rank>", ""},                                       /* no rank */
		{"<rank>3</rank>", "<rank>2</rank>"},                         /* not above ada0p3 */
		{"</mesh>\n", ""},                                            /* cut short */
		{"</mesh>\n", "</mesh>\n<mesh></mesh>\n"},
		{"</provider>\n  </geom>\n  <geom id=\"0x21\"", "  </geom>\n  <geom id=\"0x21\""},
		{"<consumer id=\"0x300\">", "<consumer id=\"0x100\">"},    /* a provider's id */
		{"<consumer id=\"0x400\">", "<consumer id=\"0x300\">"},    /* given twice */
		{"<name>ada1</name><rank>2</rank>\n   <consumer id=\"0x400\">",
		 "<name>ada9</name><rank>2</rank>\n   <consumer id=\"0x400\">"},   /* misnamed node */
	};
	char holder[256], bad[sizeof confxml + 128];

	(void)state;
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		corrupt(bad, sizeof bad, confxml, edits[i][0], edits[i][1]);
		int rc = vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 1, holder, sizeof holder);
		if (rc != -1)
			fail_msg("edit %zu: %d (%s)", i, rc, holder);
		assert_non_null(strstr(holder, "cannot tell whether it is in use: "));
	}
	/* Where the swap alone holds the disk, each of these once called it free: every
	 * cut short of the end, an empty text, and a swap the parser did not see. */
	static const char swap_only[] =
		"<mesh>\n <class id=\"0x1\"><name>DISK</name>\n"
		"  <geom id=\"0x10\"><class ref=\"0x1\"/><name>ada0</name><rank>1</rank>\n"
		"   <provider id=\"0x100\"><geom ref=\"0x10\"/><mode>r1w1e0</mode><name>ada0</name>"
		"</provider>\n  </geom>\n </class>\n"
		" <class id=\"0x3\"><name>SWAP</name>\n"
		"  <geom id=\"0x30\"><class ref=\"0x3\"/><name>swap</name><rank>2</rank>\n"
		"   <consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x100\"/>"
		"<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n</mesh>\n";
	static const char *const hide[][2] = {
		{"<provider ref=\"0x100\"/>", "<provider ref=\"\"/>"},
		{"<provider ref=\"0x100\"/>", "<provider ref = \"0x100\"/>"},
		{"<provider ref=\"0x100\"/>", "<provider ref=\"0x000000000000000000000000100\"/>"},
		{"<consumer id=\"0x300\">", "<consumer\tid=\"0x300\">"},
		{"<consumer id=\"0x300\">", "<CONSUMER id=\"0x300\">"},
		{"<name>SWAP</name>\n  <geom id=\"0x30\">", "<name>SWAP</name>\n </class>\n  <geom id=\"0x30\">"},
		{"<provider ref=\"0x100\"/>", ""},      /* open counts, yet attached to nothing */
		{"<name>SWAP</name>", "<name>SWAP</name><name>DEV</name>"},
		{"<rank>2</rank>", "<rank>2</rank>JUNK"},
		{"<consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x100\"/>"
		 "<mode>r1w1e0</mode></consumer>",
		 "<config><consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x100\"/>"
		 "<mode>r1w1e0</mode></consumer></config>"},
		/* the swap's class gone whole: the disk's counts are then no consumer's */
		{" <class id=\"0x3\"><name>SWAP</name>\n"
		 "  <geom id=\"0x30\"><class ref=\"0x3\"/><name>swap</name><rank>2</rank>\n"
		 "   <consumer id=\"0x300\"><geom ref=\"0x30\"/><provider ref=\"0x100\"/>"
		 "<mode>r1w1e0</mode></consumer>\n  </geom>\n </class>\n", ""},
	};
	assert_int_equal(vb_os_bsd_geom_busy(swap_only, "ada0", "ada0", 0, 0, holder,
					     sizeof holder), 1);
	for (size_t i = 0; i < sizeof hide / sizeof hide[0]; i++) {
		corrupt(bad, sizeof bad, swap_only, hide[i][0], hide[i][1]);
		int rc = vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 0, holder, sizeof holder);
		if (rc != -1)
			fail_msg("hidden swap %zu: %d (%s)", i, rc, holder);
	}
	char cut[sizeof swap_only];
	for (size_t len = 0; len + 1 < sizeof swap_only - 1; len++) {
		snprintf(cut, sizeof cut, "%.*s", (int)len, swap_only);
		if (vb_os_bsd_geom_busy(cut, "ada0", "ada0", 0, 0, holder, sizeof holder) != -1)
			fail_msg("cut at %zu: not refused (%s)", len, holder);
	}
	assert_int_equal(vb_os_bsd_geom_busy("sysctl: unknown oid", "ada0", "ada0", 0, 1, holder,
					     sizeof holder), -1);
	assert_int_equal(vb_os_bsd_geom_busy("<mesh></mesh>", "ada0", "ada0", 0, 1, holder,
					     sizeof holder), -1);
	/* an idle device made of ada0 in a class named DEV: a node's geom makes no provider */
	char idle[sizeof bad], dev[sizeof bad];
	corrupt(idle, sizeof idle, swap_only, "<mode>r1w1e0</mode><name>ada0</name>",
		"<mode>r0w0e0</mode><name>ada0</name>");
	corrupt(bad, sizeof bad, idle, "<mode>r1w1e0</mode></consumer>",
		"<mode>r0w0e0</mode></consumer><provider id=\"0x301\"><geom ref=\"0x30\"/>"
		"<mode>r0w0e0</mode><name>concat/data</name></provider>");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 0, holder, sizeof holder), 1);
	corrupt(dev, sizeof dev, bad, "<name>SWAP</name>", "<name>DEV</name>");
	assert_int_equal(vb_os_bsd_geom_busy(dev, "ada0", "ada0", 0, 0, holder, sizeof holder), -1);
	/* two device nodes on the target, vbench's own open on one: which is whose is lost */
	corrupt(idle, sizeof idle, swap_only, "<name>swap</name>", "<name>ada0</name>");
	corrupt(bad, sizeof bad, idle, "<name>SWAP</name>", "<name>DEV</name>");
	corrupt(dev, sizeof dev, bad, "</geom>\n </class>\n</mesh>",
		"</geom>\n  <geom id=\"0x31\"><class ref=\"0x3\"/><name>ada0</name><rank>2</rank>"
		"<consumer id=\"0x310\"><geom ref=\"0x31\"/><provider ref=\"0x100\"/>"
		"<mode>r0w1e0</mode></consumer></geom>\n </class>\n</mesh>");
	corrupt(bad, sizeof bad, dev, "<mode>r1w1e0</mode><name>ada0</name>",
		"<mode>r0w2e0</mode><name>ada0</name>");
	corrupt(dev, sizeof dev, bad, "<mode>r1w1e0</mode></consumer>",
		"<mode>r0w1e0</mode></consumer>");
	assert_int_equal(vb_os_bsd_geom_busy(dev, "ada0", "ada0", 0, 1, holder, sizeof holder), -1);
	/* counts of INT_MAX are read as open, never summed into a wrap to "idle" */
	corrupt(idle, sizeof idle, swap_only, "<name>swap</name>", "<name>ada0</name>");
	corrupt(bad, sizeof bad, idle, "<name>SWAP</name>", "<name>DEV</name>");
	corrupt(dev, sizeof dev, bad, "<mode>r1w1e0</mode><name>ada0</name>",
		"<mode>r2147483647w2147483647e2</mode><name>ada0</name>");
	corrupt(bad, sizeof bad, dev, "<mode>r1w1e0</mode></consumer>",
		"<mode>r2147483647w2147483647e2</mode></consumer>");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 0, holder, sizeof holder), 1);
	/* a holder's provider named as the target: which of the two vbench opened is lost */
	corrupt(bad, sizeof bad, swap_only, "</consumer>\n  </geom>",
		"</consumer><provider id=\"0x301\"><geom ref=\"0x30\"/><mode>r0w0e0</mode>"
		"<name>ada0</name></provider>\n  </geom>");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 0, holder, sizeof holder), -1);
	/* vbench's own open not shown on the target's node: the text is not of now */
	corrupt(bad, sizeof bad, confxml, "<provider id=\"0x101\"><geom ref=\"0x11\"/><mode>r0w1e0",
		"<provider id=\"0x101\"><geom ref=\"0x11\"/><mode>r0w0e0");
	corrupt(dev, sizeof dev, bad, "<mode>r0w1e0</mode></consumer>\n  </geom>\n </class>\n"
		"</mesh>", "<mode>r0w0e0</mode></consumer>\n  </geom>\n </class>\n</mesh>");
	assert_int_equal(vb_os_bsd_geom_busy(dev, "ada1", "ada1", 0, 0, holder, sizeof holder), 0);
	assert_int_equal(vb_os_bsd_geom_busy(dev, "ada1", "ada1", 0, 1, holder, sizeof holder), -1);
	/* a class's own words are its own: a label with a raw < (g_raid_dumpconf) is read */
	corrupt(bad, sizeof bad, confxml, "<config><scheme>GPT</scheme></config>",
		"<config><Label>a<b</Label><Subdisks>r0(ada0)</Subdisks></config>");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0", 0, 1, holder, sizeof holder), 1);
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada1", "ada1", 0, 1, holder, sizeof holder), 0);
	/* the kernel's escapes undone (g_conf_cat_escaped): a name with & is found */
	corrupt(bad, sizeof bad, confxml, "<name>ada0p3</name>", "<name>ada0&#x26;p3</name>");
	assert_int_equal(vb_os_bsd_geom_busy(bad, "ada0", "ada0&p3", 0, 1, holder, sizeof holder),
			 1);
	assert_string_equal(holder, "ada0&p3 is held by GEOM class SWAP (swap, access r1w1e0)");
}

/* The counts of modes a and b added, as a provider shows its consumers' ("rw" when one is
 * not a mode, so that the text stays unreadable). */
static void mode_sum(char out[40], const char *a, const char *b)
{
	int x[3], y[3];

	if (sscanf(a, "r%dw%de%d", &x[0], &x[1], &x[2]) != 3 ||
	    sscanf(b, "r%dw%de%d", &y[0], &y[1], &y[2]) != 3)
		snprintf(out, 40, "rw");
	else
		snprintf(out, 40, "r%dw%de%d", x[0] + y[0], x[1] + y[1], x[2] + y[2]);
}

/* kern.geom.confxml of a GPT disk ada1 with partitions ada1p1 (labelled gpt/data) and
 * ada1p2, each with its device node (class DEV), as g_conf_geom (sys/geom/geom_dump.c)
 * writes it; the modes are the arguments: the PART consumer on ada1, the device nodes of
 * ada1, ada1p1 and gpt/data, the LABEL consumer on ada1p1, and a mount (VFS) of ada1p2. */
static void part_mesh(char *buf, size_t n, const char *part, const char *dev_ada1,
		      const char *dev_p1, const char *dev_label, const char *label, const char *vfs)
{
	/* each provider's counts are its consumers' sum (g_access) */
	char ada1[40], p1[40], p2[40], data[40];
	mode_sum(ada1, part, dev_ada1);
	mode_sum(p1, label, dev_p1);
	mode_sum(p2, vfs != NULL ? vfs : "r0w0e0", "r0w0e0");
	mode_sum(data, dev_label, "r0w0e0");
	/* g_vfs_open (sys/geom/geom_vfs.c) makes the VFS geom at mount, g_vfs_close withers
	 * it at unmount: vfs NULL is ada1p2 not mounted. */
	static const char vfs_head[] =
		"  <class id=\"0xffffffff81d4f5c0\">\n    <name>VFS</name>\n"
		"    <geom id=\"0xfffff80003e11200\">\n      <class ref=\"0xffffffff81d4f5c0\"/>\n"
		"      <name>ffs.ada1p2</name>\n      <rank>3</rank>\n"
		"      <consumer id=\"0xfffff80003e11080\">\n        <geom ref=\"0xfffff80003e11200\"/>\n"
		"        <provider ref=\"0xfffff80003bb8200\"/>\n        <mode>";
	static const char vfs_tail[] = "</mode>\n      </consumer>\n    </geom>\n  </class>\n";

	snprintf(buf, n,
		"<?xml version=\"1.0\"?>\n<mesh>\n"
		"  <class id=\"0xffffffff81d4f0a0\">\n    <name>DISK</name>\n"
		"    <geom id=\"0xfffff80003a1e100\">\n      <class ref=\"0xffffffff81d4f0a0\"/>\n"
		"      <name>ada1</name>\n      <rank>1</rank>\n      <config>\n      </config>\n"
		"      <provider id=\"0xfffff80003a1dd00\">\n        <geom ref=\"0xfffff80003a1e100\"/>\n"
		"        <mode>%s</mode>\n        <name>ada1</name>\n"
		"        <mediasize>10737418240</mediasize>\n        <sectorsize>512</sectorsize>\n"
		"      </provider>\n    </geom>\n  </class>\n"
		"  <class id=\"0xffffffff81d53a28\">\n    <name>PART</name>\n"
		"    <geom id=\"0xfffff80003bb8600\">\n      <class ref=\"0xffffffff81d53a28\"/>\n"
		"      <name>ada1</name>\n      <rank>2</rank>\n"
		"      <config>\n        <scheme>GPT</scheme>\n      </config>\n"
		"      <consumer id=\"0xfffff80003bb8480\">\n        <geom ref=\"0xfffff80003bb8600\"/>\n"
		"        <provider ref=\"0xfffff80003a1dd00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n"
		"      <provider id=\"0xfffff80003bb8300\">\n        <geom ref=\"0xfffff80003bb8600\"/>\n"
		"        <mode>%s</mode>\n        <name>ada1p1</name>\n"
		"        <config>\n          <type>freebsd-ufs</type>\n        </config>\n      </provider>\n"
		"      <provider id=\"0xfffff80003bb8200\">\n        <geom ref=\"0xfffff80003bb8600\"/>\n"
		"        <mode>%s</mode>\n        <name>ada1p2</name>\n      </provider>\n"
		"    </geom>\n  </class>\n"
		"  <class id=\"0xffffffff81d50e08\">\n    <name>LABEL</name>\n"
		"    <geom id=\"0xfffff80003c0d000\">\n      <class ref=\"0xffffffff81d50e08\"/>\n"
		"      <name>ada1p1</name>\n      <rank>3</rank>\n"
		"      <consumer id=\"0xfffff80003c0ce80\">\n        <geom ref=\"0xfffff80003c0d000\"/>\n"
		"        <provider ref=\"0xfffff80003bb8300\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n"
		"      <provider id=\"0xfffff80003c0cd00\">\n        <geom ref=\"0xfffff80003c0d000\"/>\n"
		"        <mode>%s</mode>\n        <name>gpt/data</name>\n      </provider>\n"
		"    </geom>\n  </class>\n"
		"%s%s%s"
		"  <class id=\"0xffffffff81d4e2d0\">\n    <name>DEV</name>\n"
		"    <geom id=\"0xfffff80003a1e000\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>ada1</name>\n      <rank>2</rank>\n"
		"      <consumer id=\"0xfffff80003a1de80\">\n        <geom ref=\"0xfffff80003a1e000\"/>\n"
		"        <provider ref=\"0xfffff80003a1dd00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n    </geom>\n"
		"    <geom id=\"0xfffff80003bb8100\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>ada1p1</name>\n      <rank>3</rank>\n"
		"      <consumer id=\"0xfffff80003bb8080\">\n        <geom ref=\"0xfffff80003bb8100\"/>\n"
		"        <provider ref=\"0xfffff80003bb8300\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n    </geom>\n"
		"    <geom id=\"0xfffff80003c0cb00\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>gpt/data</name>\n      <rank>4</rank>\n"
		"      <consumer id=\"0xfffff80003c0ca80\">\n        <geom ref=\"0xfffff80003c0cb00\"/>\n"
		"        <provider ref=\"0xfffff80003c0cd00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n    </geom>\n  </class>\n"
		"</mesh>\n", ada1, part, p1, p2, label, data, vfs ? vfs_head : "", vfs ? vfs : "",
		vfs ? vfs_tail : "", dev_ada1, dev_p1, dev_label);
}

/* Finding 1: another program's open of the target shows only on its device node, added
 * to vbench's own (g_dev_open): r1w2e0 where vbench holds r0w1e0 is another reader-writer,
 * refused with the counts. Finding 2: vbench's own write passed down by PART (r0w1e1 on
 * ada1) and LABEL is not a holder; a partition, or a label on one, with nothing else open
 * is free; a sibling's mount, another's open of the whole disk, are holders. */
static void test_geom_own_open(void **state)
{
	char xml[8192], holder[256];

	(void)state;
	/* vbench writes ada1p1: PART passes r0w1e1 down; ada1p2 is not open */
	part_mesh(xml, sizeof xml, "r0w1e1", "r0w0e0", "r0w1e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), 0);
	/* ... and so does another program */
	part_mesh(xml, sizeof xml, "r1w2e2", "r0w0e0", "r1w2e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), 1);
	assert_string_equal(holder, "another program has /dev/ada1p1 open (GEOM DEV access "
			    "r1w2e0, of which vbench's own is r0w1e0)");
	/* checked before the open (fd -1): any open at all is another's */
	part_mesh(xml, sizeof xml, "r1w0e1", "r0w0e0", "r1w0e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 0, holder, sizeof holder), 1);
	/* ada1p2 mounted beside it */
	part_mesh(xml, sizeof xml, "r1w2e2", "r0w0e0", "r0w1e0", "r0w0e0", "r0w0e0", "r1w1e1");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), 1);
	assert_string_equal(holder, "ada1p2 is held by GEOM class VFS (ffs.ada1p2, access r1w1e1)");
	/* the whole disk open by another (a VM given /dev/ada1) */
	part_mesh(xml, sizeof xml, "r0w1e1", "r1w1e0", "r0w1e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), 1);
	assert_string_equal(holder, "another program has /dev/ada1 open (GEOM DEV access r1w1e0)");
	/* vbench writes gpt/data: LABEL adds an e bit (g_slice_access), PART passes it on */
	part_mesh(xml, sizeof xml, "r0w1e2", "r0w0e0", "r0w0e0", "r0w1e0", "r0w1e1", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "gpt/data", 0, 1, holder, sizeof holder), 0);
	/* ... while another has ada1p1 under the label open */
	part_mesh(xml, sizeof xml, "r1w1e2", "r0w0e0", "r1w0e0", "r0w1e0", "r0w1e1", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "gpt/data", 0, 1, holder, sizeof holder), 1);
	assert_string_equal(holder, "another program has /dev/ada1p1 open (GEOM DEV access r1w0e0)");
	/* geli holds its disk r1w1e1 while attached (g_eli_create): its own provider is
	 * the target's way down; the raw disk under it, held, names its deepest user */
	static const char eli[] =
		"<mesh>\n <class id=\"0x1\"><name>DISK</name>\n"
		"  <geom id=\"0x10\"><class ref=\"0x1\"/><name>ada2</name><rank>1</rank>\n"
		"   <provider id=\"0x100\"><geom ref=\"0x10\"/><mode>r1w1e1</mode><name>ada2</name>"
		"</provider>\n  </geom>\n </class>\n"
		" <class id=\"0x5\"><name>ELI</name>\n"
		"  <geom id=\"0x50\"><class ref=\"0x5\"/><name>ada2.eli</name><rank>2</rank>\n"
		"   <consumer id=\"0x500\"><geom ref=\"0x50\"/><provider ref=\"0x100\"/>"
		"<mode>r1w1e1</mode></consumer>\n"
		"   <provider id=\"0x501\"><geom ref=\"0x50\"/><mode>r0w1e0</mode>"
		"<name>ada2.eli</name></provider>\n  </geom>\n </class>\n"
		" <class id=\"0x4\"><name>DEV</name>\n"
		"  <geom id=\"0x40\"><class ref=\"0x4\"/><name>ada2.eli</name><rank>3</rank>\n"
		"   <consumer id=\"0x400\"><geom ref=\"0x40\"/><provider ref=\"0x501\"/>"
		"<mode>r0w1e0</mode></consumer>\n  </geom>\n </class>\n</mesh>\n";
	assert_int_equal(vb_os_bsd_geom_busy(eli, "ada2", "ada2.eli", 0, 1, holder, sizeof holder), 0);
	assert_int_equal(vb_os_bsd_geom_busy(eli, "ada2", "ada2", 0, 0, holder, sizeof holder), 1);
	assert_string_equal(holder, "another program has /dev/ada2.eli open (GEOM DEV access "
			    "r0w1e0)");
	/* a mode that is not one, and fewer opens than vbench's own: cannot tell */
	part_mesh(xml, sizeof xml, "r0w1e1", "r0w0e0", "rw", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), -1);
	part_mesh(xml, sizeof xml, "r0w0e0", "r0w0e0", "r0w0e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1p1", 0, 1, holder, sizeof holder), -1);
}

/* kern.geom.confxml with "gconcat label data ada1 ada2" loaded and concat/data not open
 * (g_concat_access opens the components only when concat/data is opened), as
 * g_conf_geom and g_concat_dumpconf write it; mode is that of the concat's consumers. */
static void concat_mesh(char *buf, size_t n, const char *mode, const char *dev_concat,
			const char *dev_ada2)
{
	char ada2[40];
	mode_sum(ada2, mode, dev_ada2);
	snprintf(buf, n,
		"<?xml version=\"1.0\"?>\n<mesh>\n"
		"  <class id=\"0xffffffff81d4f0a0\">\n    <name>DISK</name>\n"
		"    <geom id=\"0xfffff80003a1e100\">\n      <class ref=\"0xffffffff81d4f0a0\"/>\n"
		"      <name>ada1</name>\n      <rank>1</rank>\n"
		"      <provider id=\"0xfffff80003a1dd00\">\n        <geom ref=\"0xfffff80003a1e100\"/>\n"
		"        <mode>%s</mode>\n        <name>ada1</name>\n"
		"        <mediasize>10737418240</mediasize>\n        <sectorsize>512</sectorsize>\n"
		"      </provider>\n    </geom>\n"
		"    <geom id=\"0xfffff80003a1c100\">\n      <class ref=\"0xffffffff81d4f0a0\"/>\n"
		"      <name>ada2</name>\n      <rank>1</rank>\n"
		"      <provider id=\"0xfffff80003a1cd00\">\n        <geom ref=\"0xfffff80003a1c100\"/>\n"
		"        <mode>%s</mode>\n        <name>ada2</name>\n      </provider>\n"
		"    </geom>\n  </class>\n"
		"  <class id=\"0xffffffff81d60c48\">\n    <name>CONCAT</name>\n"
		"    <geom id=\"0xfffff80003d2a000\">\n      <class ref=\"0xffffffff81d60c48\"/>\n"
		"      <name>data</name>\n      <rank>2</rank>\n      <config>\n"
		"        <ID>3133215723</ID>\n        <Type>AUTOMATIC</Type>\n"
		"        <Status>Total=2, Online=2</Status>\n        <State>UP</State>\n"
		"      </config>\n"
		"      <consumer id=\"0xfffff80003d29e80\">\n        <geom ref=\"0xfffff80003d2a000\"/>\n"
		"        <provider ref=\"0xfffff80003a1dd00\"/>\n        <mode>%s</mode>\n"
		"        <config>\n          <Start>0</Start>\n          <End>10737417728</End>\n"
		"          <Number>0</Number>\n        </config>\n      </consumer>\n"
		"      <consumer id=\"0xfffff80003d29d80\">\n        <geom ref=\"0xfffff80003d2a000\"/>\n"
		"        <provider ref=\"0xfffff80003a1cd00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n"
		"      <provider id=\"0xfffff80003d29c00\">\n        <geom ref=\"0xfffff80003d2a000\"/>\n"
		"        <mode>%s</mode>\n        <name>concat/data</name>\n      </provider>\n"
		"    </geom>\n  </class>\n"
		"  <class id=\"0xffffffff81d4e2d0\">\n    <name>DEV</name>\n"
		"    <geom id=\"0xfffff80003a1e000\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>ada1</name>\n      <rank>2</rank>\n"
		"      <consumer id=\"0xfffff80003a1de80\">\n        <geom ref=\"0xfffff80003a1e000\"/>\n"
		"        <provider ref=\"0xfffff80003a1dd00\"/>\n        <mode>r0w0e0</mode>\n"
		"      </consumer>\n    </geom>\n"
		"    <geom id=\"0xfffff80003d29b00\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>concat/data</name>\n      <rank>3</rank>\n"
		"      <consumer id=\"0xfffff80003d29a80\">\n        <geom ref=\"0xfffff80003d29b00\"/>\n"
		"        <provider ref=\"0xfffff80003d29c00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n    </geom>\n"
		"    <geom id=\"0xfffff80003a1c000\">\n      <class ref=\"0xffffffff81d4e2d0\"/>\n"
		"      <name>ada2</name>\n      <rank>2</rank>\n"
		"      <consumer id=\"0xfffff80003a1be80\">\n        <geom ref=\"0xfffff80003a1c000\"/>\n"
		"        <provider ref=\"0xfffff80003a1cd00\"/>\n        <mode>%s</mode>\n"
		"      </consumer>\n    </geom>\n  </class>\n"
		"</mesh>\n", mode, ada2, mode, mode, dev_concat, dev_concat, dev_ada2);
}

/* attack-ports 1: a disk a GEOM device is made of is held by it even while that device
 * is not open (its consumers then show r0w0e0); PART and LABEL, views of one provider,
 * are not (the idle PART and LABEL of part_mesh above stay free). */
static void test_geom_idle_devices(void **state)
{
	char xml[8192], holder[256];

	(void)state;
	concat_mesh(xml, sizeof xml, "r0w0e0", "r0w0e0", "r0w0e0");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1", 0, 0, holder, sizeof holder), 1);
	assert_string_equal(holder, "ada1 is part of GEOM class CONCAT (data), configured "
			    "though not open now");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada2", "ada2", 0, 0, holder, sizeof holder), 1);
	/* the concat itself as the target (conftxt places it on ada1, its first disk): free
	 * with only vbench's open passed down, held while another has ada2 open */
	concat_mesh(xml, sizeof xml, "r0w1e1", "r0w1e0", "r0w0e0");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "concat/data", 0, 1, holder,
					     sizeof holder), 0);
	concat_mesh(xml, sizeof xml, "r0w1e1", "r0w1e0", "r1w1e0");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "concat/data", 0, 1, holder,
					     sizeof holder), 1);
	assert_string_equal(holder, "another program has /dev/ada2 open (GEOM DEV access "
			    "r1w1e0)");
	concat_mesh(xml, sizeof xml, "r1w1e1", "r0w0e0", "r0w0e0");
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1", 0, 0, holder, sizeof holder), 1);
	assert_string_equal(holder, "ada1 is held by GEOM class CONCAT (data, access r1w1e1)");
	part_mesh(xml, sizeof xml, "r0w0e0", "r0w0e0", "r0w0e0", "r0w0e0", "r0w0e0", NULL);
	assert_int_equal(vb_os_bsd_geom_busy(xml, "ada1", "ada1", 0, 0, holder, sizeof holder), 0);
}

/* ---- the in-use check against a fake system ---------------------------------------- */

/* What the fake system knows: device names by number and kind, nodes under /dev and
 * files by path, wedges and their parents, and the lists (a negative count: the call
 * fails). */
struct fake_name { uint64_t rdev; bool blk; const char *name; };
struct fake_node { const char *path; struct vb_fileinfo fi; };
struct fake_wedge { const char *wedge, *parent; };

struct fake {
	const struct fake_name *names;
	const struct fake_node *nodes;
	const struct fake_wedge *wedges;
	const struct vb_os_bsd_mount *mounts;
	long n_mounts;
	const struct vb_os_bsd_swap *swaps;
	long n_swaps;
	const struct vb_os_bsd_backing *backs;
	long n_backs;
	const char *confxml;       /* geom_busy, when set; "" fails */
	const char *disknames;     /* hw.disknames or kern.disks, when set; "" fails */
};

static bool f_devname(void *ctx, uint64_t rdev, bool blk, char *buf, size_t n)
{
	const struct fake *f = ctx;

	for (size_t i = 0; f->names && f->names[i].name; i++)
		if (f->names[i].rdev == rdev && f->names[i].blk == blk) {
			snprintf(buf, n, "%s", f->names[i].name);
			return true;
		}
	return false;
}

static int f_stat(void *ctx, const char *path, struct vb_fileinfo *fi)
{
	const struct fake *f = ctx;

	for (size_t i = 0; f->nodes && f->nodes[i].path; i++)
		if (strcmp(f->nodes[i].path, path) == 0) {
			*fi = f->nodes[i].fi;
			return 0;
		}
	errno = ENOENT;
	return -1;
}

static int f_wedge_parent(void *ctx, const char *name, char *parent, size_t n)
{
	const struct fake *f = ctx;

	for (size_t i = 0; f->wedges && f->wedges[i].wedge; i++)
		if (strcmp(f->wedges[i].wedge, name) == 0) {
			snprintf(parent, n, "%s", f->wedges[i].parent);
			return 1;
		}
	errno = ENXIO;
	return -1;
}

static long f_mounts(void *ctx, const struct vb_os_bsd_mount **out, char *why, size_t wn)
{
	const struct fake *f = ctx;

	*out = f->mounts;
	if (f->n_mounts < 0)
		snprintf(why, wn, "getmntinfo: %s", strerror(EIO));
	return f->n_mounts;
}

static long f_swaps(void *ctx, const struct vb_os_bsd_swap **out, char *why, size_t wn)
{
	const struct fake *f = ctx;

	*out = f->swaps;
	if (f->n_swaps < 0)
		snprintf(why, wn, "sysctl vm.swap_info_array: %s", strerror(ENOENT));
	return f->n_swaps;
}

static long f_backings(void *ctx, const struct vb_os_bsd_backing **out, char *why, size_t wn)
{
	const struct fake *f = ctx;

	*out = f->backs;
	if (f->n_backs < 0)
		snprintf(why, wn, "VNDIOCGET vnd0: %s", strerror(EPERM));
	return f->n_backs;
}

static int f_geom_busy(void *ctx, const char *disk, const char *target, int own_r, int own_w,
		       char *holder, size_t n)
{
	const struct fake *f = ctx;

	if (f->confxml[0] == '\0') {
		snprintf(holder, n, "cannot read GEOM's configuration");
		return -1;
	}
	return vb_os_bsd_geom_busy(f->confxml, disk, target, own_r, own_w, holder, n);
}

static const char *f_disknames(void *ctx, char *why, size_t wn)
{
	const struct fake *f = ctx;

	if (f->disknames[0] == '\0') {
		snprintf(why, wn, "sysctl hw.disknames: %s", strerror(EPERM));
		return NULL;
	}
	return f->disknames;
}

/* A system of NetBSD's kind (wedges, swapctl) or DragonFly's (neither: no wedge call). */
static struct vb_os_bsd_sys fake_sys(struct fake *f, bool wedges)
{
	struct vb_os_bsd_sys sys = {f, f_devname, f_stat, wedges ? f_wedge_parent : NULL, NULL,
				 f_mounts, f_swaps, f_backings, f->confxml ? f_geom_busy : NULL,
				 f->disknames ? f_disknames : NULL, 0, 1};
	return sys;
}

static struct vb_fileinfo chr(uint64_t rdev)
{
	struct vb_fileinfo fi = {VB_FT_CHR, 1, 100, rdev, 1, 0, 0};
	return fi;
}

static struct vb_fileinfo blk(uint64_t rdev)
{
	struct vb_fileinfo fi = {VB_FT_BLK, 1, 101, rdev, 1, 0, 0};
	return fi;
}

static struct vb_fileinfo reg(uint64_t dev, uint64_t ino)
{
	struct vb_fileinfo fi = {VB_FT_REG, dev, ino, 0, 1, 4096, 0};
	return fi;
}

/* NetBSD's device names by number and kind: wd is block major 0 and character major 3,
 * and character major 0 is the console (sys/arch/amd64/conf/majors.amd64); the minors
 * here are made up, the names and their kinds are not. */
static const struct fake_name netbsd_names[] = {
	{0x0300, false, "rwd0d"}, {0x0003, true, "wd0d"}, {0x0308, false, "rwd1d"},
	{0x000b, true, "wd1d"}, {0x000b, false, "console"}, {0xa801, false, "rdk1"},
	{0xa801, true, "dk1"}, {0xa802, false, "rdk2"}, {0, false, NULL},
};

/* DIOCGWEDGEINFO's dkw_parent (sys/sys/disk.h, struct dkwedge_info): the disk a wedge is
 * on, as dkctl(8) listwedges prints it ("dk1 at wd0: root"). */
static const struct fake_wedge netbsd_wedges[] = {
	{"dk1", "wd0"}, {"dk2", "wd1"}, {NULL, NULL},
};

/* Finding 1: a wedge in use is seen from the wedge, its raw twin and its parent. A GPT
 * NetBSD mounts its root from a wedge ("/dev/dk1 on / type ffs", mount(8)). */
static void test_netbsd_wedges(void **state)
{
	const struct vb_os_bsd_mount mnt[] = {{"/dev/dk1", "/", "ffs"}, {"tmpfs", "/tmp", "tmpfs"}};
	const struct vb_os_bsd_swap swp[] = {{"/dev/dk2", 0, false}};
	struct fake f = {netbsd_names, NULL, netbsd_wedges, mnt, 2, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	struct vb_fileinfo fi = chr(0xa801);
	char holder[512];

	(void)state;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/dk1 is mounted on /");
	fi = blk(0xa801);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	fi = chr(0x0300);   /* the parent, rwd0d */
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	fi = chr(0x0308);   /* another disk */
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 0);
	/* swapctl names a wedge on wd1 */
	f.swaps = swp;
	f.n_swaps = 1;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/dk2 is used as swap");
	/* a wedge that does not answer DIOCGWEDGEINFO: cannot tell */
	f.wedges = NULL;
	fi = chr(0xa802);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
}

/* A mount point longer than the answer (MNAMELEN is 1024) is cut in its middle with the
 * marker: the answer still starts with what is mounted, and says it was cut. */
static void test_long_mount_point_marked(void **state)
{
	static char on[700];
	struct vb_os_bsd_mount mnt[] = {{"/dev/dk1", on, "ffs"}};
	struct fake f = {netbsd_names, NULL, netbsd_wedges, mnt, 1, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	struct vb_fileinfo fi = chr(0xa801);
	char holder[512];

	(void)state;
	on[0] = '/';
	memset(on + 1, 'p', sizeof on - 3);
	on[sizeof on - 2] = 'q';
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_non_null(strstr(holder, "/dev/dk1 is mounted on /ppp"));
	assert_non_null(strstr(holder, "pp" VB_CUT_MIDDLE "pp"));
	assert_string_equal(holder + strlen(holder) - 3, "ppq");
}

/* Finding 5: a cgd, RAIDframe or ccd unit (NetBSD hw.disknames, as iostati_getnames
 * writes it) or a device-mapper disk (DragonFly kern.disks, "mapper/NAME") holds disks
 * no mount shows: every other disk is refused while one is configured. */
static void test_stacked_units(void **state)
{
	const struct vb_os_bsd_mount mnt[] = {{"/dev/dk1", "/", "ffs"}};
	struct fake f = {netbsd_names, NULL, netbsd_wedges, mnt, 1, NULL, 0, NULL, 0, NULL,
			 "wd0 wd1 cd0 dk0 dk1 dk2"};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	struct vb_fileinfo fi = chr(0x0308);   /* rwd1d, nothing mounted on it */
	char holder[512], unit[32];

	(void)state;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 0);
	f.disknames = "wd0 wd1 cd0 dk0 dk1 dk2 cgd0";
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: cgd0 is configured, and "
			    "vbench cannot see which disks it is made of; it refuses every other "
			    "disk while one is");
	f.disknames = "";
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_non_null(strstr(holder, "sysctl hw.disknames"));
	/* a mount on the disk is still named first */
	f.disknames = "wd0 raid0";
	fi = chr(0x0300);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_true(vb_os_bsd_stacked_unit("wd0 raid0", "wd0", unit, sizeof unit));
	assert_string_equal(unit, "raid0");
	assert_true(vb_os_bsd_stacked_unit("ld0 ccd1", "ld0", unit, sizeof unit));
	assert_true(vb_os_bsd_stacked_unit("da0 vn0 mapper/cryptroot", "da0", unit, sizeof unit));
	assert_string_equal(unit, "mapper/cryptroot");
	assert_false(vb_os_bsd_stacked_unit("da0 vn0 md0 cd0 fd0", "da0", unit, sizeof unit));
	assert_false(vb_os_bsd_stacked_unit("ad0 ad1 acd0 vn0 vn1 vn2 vn3", "ad1", unit, sizeof unit));
	assert_false(vb_os_bsd_stacked_unit("cgd0", "cgd0", unit, sizeof unit));
	/* attack-ports 2: an LVM volume attaches under its own name (dm_dev_create_ioctl,
	 * sys/dev/dm/dm_ioctl.c: disk_init(dmv->diskp, dmv->name, ...)); any name that is
	 * not a plain disk driver's unit is taken for one that may be made of others */
	assert_true(vb_os_bsd_stacked_unit("da0 vn0 md0 cd0 raidx", "da0", unit, sizeof unit));
	assert_true(vb_os_bsd_stacked_unit("wd0 wd1 dk0 vg0-lv0", "wd1", unit, sizeof unit));
	assert_string_equal(unit, "vg0-lv0");
	assert_true(vb_os_bsd_stacked_unit("wd0 wd1x", "wd0", unit, sizeof unit));
	assert_false(vb_os_bsd_stacked_unit("wd0 wd1 sd0 ld0 dk0 dk1 vnd0 cd0 md0 fd0\n", "wd1",
					    unit, sizeof unit));
	f.disknames = "wd0 wd1 vg0-lv0";   /* hw.disknames with an LV used raw by a guest */
	fi = chr(0x0308);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: vg0-lv0 is configured, "
			    "and vbench cannot see which disks it is made of; it refuses every "
			    "other disk while one is");
}

/* attack-ports 3: a name is a disk's as a whole or through the node it names. NetBSD: a
 * ZFS dataset mounted (f_mntfromname is the dataset, zfs_domount) refuses every disk
 * whatever its name ends in; FreeBSD: a zvol, which kern.geom.conftxt does not list
 * (g_conftxt dumps only DISK and MD), is no disk vbench can name. */
static void test_names_by_identity(void **state)
{
	struct vb_os_bsd_mount mnt[] = {{"/dev/wd0a", "/", "ffs"},
				     {"tank/backup/wd0", "/tank/backup/wd0", "zfs"}};
	struct fake f = {netbsd_names, NULL, netbsd_wedges, mnt, 2, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	struct vb_fileinfo fi = chr(0x0308);   /* rwd1d, the pool's disk */
	char holder[512], disk[64];

	(void)state;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: the zfs file system "
			    "mounted on /tank/backup/wd0 names no device (its source is "
			    "\"tank/backup/wd0\")");
	mnt[1] = (struct vb_os_bsd_mount){"wd0", "/wd0", "zfs"};   /* a pool named wd0 */
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);

	const struct fake_name names[] = {{0x77, false, "zvol/tank/vm/ada1"}, {0, false, NULL}};
	const struct fake_node nodes[] = {
		{"/dev/zvol/tank/vm/ada1", {VB_FT_CHR, 1, 9, 0x77, 1, 0, 0}},
		{NULL, {0, 0, 0, 0, 0, 0, 0}},
	};
	struct fake z = {names, nodes, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys zs = fake_sys(&z, false);
	assert_false(vb_os_bsd_resolve(&zs, "zvol/tank/vm/ada1", disk, sizeof disk));
	fi = chr(0x77);
	assert_int_equal(vb_os_bsd_check_in_use(&zs, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: /dev/zvol/tank/vm/ada1 "
			    "is not a disk vbench can name");
}

/* DragonFly's vm.swap_info_array as sysctl_vm_swap_info (sys/vm/vm_swap.c) fills it: one
 * struct xswdev per slot of swdevt (NSWAPDEV, 4), live ones with SW_FREED. */
static size_t dfly_array(unsigned char *buf, const uint32_t *devs, const int *flags, int n)
{
	for (int i = 0; i < n; i++) {
		struct vb_os_dfly_xswdev x = {sizeof x, 1, flags[i], devs[i], 4096, 262144, 12};
		memcpy(buf + i * sizeof x, &x, sizeof x);
	}
	return (size_t)n * sizeof(struct vb_os_dfly_xswdev);
}

/* Finding 2: DragonFly's swap list is read from its own layout; a list that cannot be
 * read refuses the disk, it is not taken for "no swap". */
static void test_dragonfly_swap(void **state)
{
	unsigned char buf[4 * sizeof(struct vb_os_dfly_xswdev)];
	const uint32_t devs[4] = {0x30022, UINT32_MAX, 0, 0};
	const int flags[4] = {1, 1, 0, 0};
	struct vb_os_bsd_swap s[4];
	size_t len = dfly_array(buf, devs, flags, 4);

	(void)state;
	assert_int_equal(vb_os_dfly_swap_parse(buf, len, s, 4), 2);
	assert_true(s[0].has_rdev);
	assert_int_equal(s[0].rdev, 0x30022);
	assert_false(s[1].has_rdev);   /* NODEV: a swap file on NFS */
	assert_int_equal(vb_os_dfly_swap_parse(buf, 0, s, 4), 0);
	assert_int_equal(vb_os_dfly_swap_parse(buf, len - 1, s, 4), -1);
	((struct vb_os_dfly_xswdev *)(void *)buf)->xsw_size = 8;
	assert_int_equal(vb_os_dfly_swap_parse(buf, len, s, 4), -1);

	const struct fake_name names[] = {{0x30011, false, "da1"}, {0x30022, false, "da1s1b"},
					  {0, false, NULL}};
	const struct vb_os_bsd_mount mnt[] = {{"/dev/da0s1a", "/", "ufs"}};
	struct vb_os_bsd_swap live[] = {{NULL, 0x30022, true}};
	struct fake f = {names, NULL, NULL, mnt, 1, live, 1, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, false);
	struct vb_fileinfo fi = chr(0x30011);
	char holder[512];
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/da1s1b is used as swap");
	f.n_swaps = -1;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot list swap devices: sysctl vm.swap_info_array: "
			    "No such file or directory; vbench refuses a disk it cannot check");
}

/* FreeBSD 13's kern.geom.conftxt lines for md(4) (g_md_dumpconf, no indent: " label %s"
 * with the label empty unless mdconfig -L gave one, then the line's "\n" from
 * g_conftxt_geom): a vnode disk names its file, then its label; FreeBSD 12 ends at the
 * file. */
static const char md_conftxt[] =
	"0 MD md1 1073741824 512 u 1 s 512 f 0 fs 0 l 1073741824 t vnode file "
	"/var/img/my disk.img label\n"
	"0 MD md0 67108864 512 u 0 s 512 f 0 fs 0 l 67108864 t malloc label\n"
	"0 MD md2 1048576 512 u 2 s 512 f 0 fs 0 l 1048576 t vnode file /usr/swap0\n"
	"0 MD md3 1048576 512 u 3 s 512 f 0 fs 0 l 1048576 t vnode file /var/img/labels.img "
	"label backup disk\n"
	"0 DISK ada0 21474836480 512 hd 16 sc 63\n";

/* Finding 3: a regular file that a vnode disk is made from, or that the kernel swaps to,
 * is refused, as is one that cannot be checked. */
static void test_files_in_use(void **state)
{
	struct vb_os_bsd_backing md[4];
	char store[512];

	(void)state;
	assert_int_equal(vb_os_fbsd_md_files(md_conftxt, md, 4, store, sizeof store), 3);
	assert_string_equal(md[0].unit, "md1");
	assert_string_equal(md[0].path, "/var/img/my disk.img");
	assert_string_equal(md[1].unit, "md2");
	assert_string_equal(md[1].path, "/usr/swap0");
	assert_string_equal(md[2].path, "/var/img/labels.img");
	/* attack-ports 5: a path that holds " label " cannot be told from its label */
	assert_int_equal(vb_os_fbsd_md_files("0 MD md5 1048576 512 u 5 s 512 f 0 fs 0 l 1048576 "
					     "t vnode file /img/a label b.img label\n", md, 4, store,
					     sizeof store), -1);

	const struct fake_node files[] = {
		{"/var/img/my disk.img", {VB_FT_REG, 5, 77, 0, 1, 0, 0}},
		{"/usr/swap0", {VB_FT_REG, 5, 78, 0, 1, 0, 0}},
		{"/swapfile", {VB_FT_REG, 6, 9, 0, 1, 0, 0}},
		{NULL, {0, 0, 0, 0, 0, 0, 0}},
	};
	/* vnd(4): VNDIOCGET's vnu_dev and vnu_ino (sys/dev/vnd.c) */
	const struct vb_os_bsd_backing vnd[] = {{"vnd0", NULL, 6, 10, true}};
	const struct vb_os_bsd_swap swp[] = {{"/dev/wd0b", 0, false}, {"/swapfile", 0, false}};
	struct fake f = {NULL, files, NULL, NULL, 0, swp, 2, md, 2, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	char holder[512];
	struct vb_fileinfo fi = reg(5, 77);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "md1 is a disk made from it");
	fi = reg(6, 9);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "it is used as swap (/swapfile)");
	fi = reg(6, 11);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 0);
	f.backs = vnd;
	f.n_backs = 1;
	fi = reg(6, 10);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "vnd0 is a disk made from it");
	/* what cannot be checked refuses */
	f.n_backs = -1;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_non_null(strstr(holder, "VNDIOCGET vnd0"));
	const struct vb_os_bsd_swap nfs[] = {{NULL, 0, false}};
	f.n_backs = 0;
	f.swaps = nfs;
	f.n_swaps = 1;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	const struct vb_os_bsd_backing gone[] = {{"md3", "/tmp/removed.img", 0, 0, false}};
	f.backs = gone;
	f.n_backs = 1;
	f.n_swaps = 0;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
}

/* Finding 4: DragonFly mounts by serial number (/dev/serno/SERIAL.s1a, an alias of the
 * slice's node: make_dev_alias in sys/kern/subr_disk.c, disk_probe_slice), HAMMER2 as DEVICE@LABEL (mount_hammer2(8)), and HAMMER shows
 * its label; a source that names no device refuses every disk. */
static void test_dragonfly_mount_sources(void **state)
{
	const struct fake_name names[] = {{0x10, false, "da0"}, {0x11, false, "da0s1a"},
					  {0x14, false, "da0s1d"}, {0x20, false, "da1"},
					  {0, false, NULL}};
	const struct fake_node nodes[] = {
		{"/dev/serno/QM00001.s1a", {VB_FT_CHR, 1, 3, 0x11, 1, 0, 0}},
		{"/dev/serno/QM00001.s1d", {VB_FT_CHR, 1, 4, 0x14, 1, 0, 0}},
		{NULL, {0, 0, 0, 0, 0, 0, 0}},
	};
	struct vb_os_bsd_mount mnt[] = {{"/dev/serno/QM00001.s1a", "/", "ufs"},
				     {"tmpfs", "/tmp", "tmpfs"}, {"procfs", "/proc", "procfs"}};
	struct fake f = {names, nodes, NULL, mnt, 3, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, false);
	struct vb_fileinfo da0 = chr(0x10), da1 = chr(0x20);
	char holder[512];

	(void)state;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da0, holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/serno/QM00001.s1a is mounted on /");
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), 0);
	mnt[0] = (struct vb_os_bsd_mount){"/dev/serno/QM00001.s1d@ROOT", "/", "hammer2"};
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da0, holder, sizeof holder), 1);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), 0);
	mnt[0] = (struct vb_os_bsd_mount){"/dev/da1s1a:/dev/serno/QM00001.s1d", "/", "hammer"};
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da0, holder, sizeof holder), 1);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), 1);
	/* HAMMER's label as its source names no device: every disk is refused */
	mnt[0] = (struct vb_os_bsd_mount){"ROOT", "/", "hammer"};
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot tell whether it is in use: the hammer file system "
			    "mounted on / names no device (its source is \"ROOT\")");
	/* a root the kernel mounted from "da0s1d" (no /dev/) */
	mnt[0] = (struct vb_os_bsd_mount){"da0s1d@ROOT", "/", "hammer2"};
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da0, holder, sizeof holder), 1);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), 0);
	mnt[0] = (struct vb_os_bsd_mount){"/dev/serno/GONE.s1a", "/", "ufs"};
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), -1);
	f.n_mounts = -1;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &da1, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot list mounted file systems: getmntinfo: "
			    "Input/output error; vbench refuses a disk it cannot check");
}

/* A sysctl whose value grows between the call that sizes it and the one that reads it,
 * as kern.geom.confxml does when a provider comes (sysctl(3): ENOMEM). */
struct growing { size_t size; int grow_times; int calls; };

static int grow_get(void *ctx, void *buf, size_t *len)
{
	struct growing *g = ctx;

	g->calls++;
	if (buf == NULL) {
		*len = g->size;
		return 0;
	}
	if (g->grow_times > 0) {
		g->grow_times--;
		g->size += g->size < 100000 ? 100000 : g->size;
	}
	if (*len < g->size) {
		errno = ENOMEM;
		return -1;
	}
	memset(buf, 'x', g->size);
	*len = g->size;
	return 0;
}

/* Finding 5: GEOM's configuration is read again with more room when it grew; when it
 * cannot be read at all the disk is refused. */
static void test_geom_read_grown(void **state)
{
	struct growing g = {1000, 2, 0};
	size_t len = 0;

	(void)state;
	char *buf = vb_os_bsd_read_grown(grow_get, &g, &len);
	assert_non_null(buf);
	assert_int_equal(len, 202000);
	assert_int_equal(buf[len], '\0');
	free(buf);
	g = (struct growing){1000, 1000, 0};   /* it outgrows every retry */
	errno = 0;
	assert_null(vb_os_bsd_read_grown(grow_get, &g, &len));
	assert_int_equal(errno, ENOMEM);

	const struct fake_name names[] = {{0x10, false, "ada0"}, {0, false, NULL}};
	const struct vb_os_bsd_mount mnt[] = {{"zroot/ROOT/default", "/", "zfs"}};
	struct fake f = {names, NULL, NULL, mnt, 1, NULL, -1, NULL, 0, "", NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, false);
	struct vb_fileinfo fi = chr(0x10);
	char holder[512];
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), -1);
	assert_string_equal(holder, "cannot read GEOM's configuration");
}

/* Finding 6: a block device is named as one. On NetBSD the same number names another
 * device as a character device (block and character majors differ). */
static void test_netbsd_block_names(void **state)
{
	const struct vb_os_bsd_mount mnt[] = {{"/dev/wd1a", "/home", "ffs"}};
	struct fake f = {netbsd_names, NULL, netbsd_wedges, mnt, 1, NULL, 0, NULL, 0, NULL, NULL};
	struct vb_os_bsd_sys sys = fake_sys(&f, true);
	struct vb_fileinfo fi = blk(0x000b);
	char holder[512];

	(void)state;
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 1);
	assert_string_equal(holder, "/dev/wd1a is mounted on /home");
	fi = blk(0x0003);
	assert_int_equal(vb_os_bsd_check_in_use(&sys, &fi, holder, sizeof holder), 0);
}

/* Finding 7: a NetBSD partition is sized by itself (DIOCGPARTINFO's pi_secsize *
 * pi_size, as spec_open takes it), not by DIOCGMEDIASIZE's whole disk; only the raw
 * partition (kern.rawpartition: 3, "d", on amd64 and i386) and a wedge are the whole of
 * what DIOCGMEDIASIZE measures, and a partition of unknown size is not taken for one. */
static void test_netbsd_partition_size(void **state)
{
	const uint64_t disk = 100ULL << 30, part = 10ULL << 30;

	(void)state;
	assert_true(part == vb_os_bsd_part_bytes(disk, part, false));
	assert_true(part == vb_os_bsd_part_bytes(disk, part, true));
	assert_true(disk == vb_os_bsd_part_bytes(disk, 0, true));
	assert_true(0 == vb_os_bsd_part_bytes(disk, 0, false));
	assert_true(vb_os_bsd_is_raw_part("rwd0d", 'd'));
	assert_true(vb_os_bsd_is_raw_part("wd0d", 'd'));
	assert_true(vb_os_bsd_is_raw_part("rsd1c", 'c'));
	assert_false(vb_os_bsd_is_raw_part("rwd0e", 'd'));
	assert_false(vb_os_bsd_is_raw_part("rwd0c", 'd'));
	assert_false(vb_os_bsd_is_raw_part("rdk1", 'd'));
	assert_false(vb_os_bsd_is_raw_part("d", 'd'));
}

/* NetBSD's VNDIOCGET as vndioctl answers it today (sys/dev/vnd.c): vnd_cget gives -1
 * for a unit that does not exist or is not configured, which VNDIOCGET turns into 0/0
 * ("unused is not an error"), for any unit number; never ENXIO. */
struct fake_vnd { int unit[2]; uint64_t ino[2]; int fail_at; int calls; };

static int f_vnd_get(void *ctx, int unit, uint64_t *dev, uint64_t *ino)
{
	struct fake_vnd *v = ctx;

	v->calls++;
	if (unit == v->fail_at) {
		errno = EPERM;
		return -1;
	}
	*dev = *ino = 0;
	for (int i = 0; i < 2; i++)
		if (v->unit[i] == unit) {
			*dev = 0x1a00;
			*ino = v->ino[i];
		}
	return 0;
}

/* attack-ports 4: the units asked are the vnd units hw.disknames lists (VNDIOCSET
 * disk_attaches one), wherever they are numbered; one listed that names no file, or
 * that cannot be asked, refuses. */
static void test_netbsd_vnd_walk(void **state)
{
	struct vb_os_bsd_backing out[4];
	char names[4][16], why[128];
	struct fake_vnd v = {{1, 290}, {12, 34}, -1, 0};

	(void)state;
	assert_int_equal(vb_os_bsd_vnd_walk("wd0 cd0 dk0 vnd1 dk1 vnd290", "vnd", false, f_vnd_get, &v, out, names,
					    4, why, sizeof why), 2);
	assert_int_equal(v.calls, 2);
	assert_string_equal(out[0].unit, "vnd1");
	assert_string_equal(out[1].unit, "vnd290");
	assert_true(out[1].has_id && out[1].dev == 0x1a00 && out[1].ino == 34);
	v.calls = 0;
	assert_int_equal(vb_os_bsd_vnd_walk("wd0 cd0", "vnd", false, f_vnd_get, &v, out, names, 4, why,
					    sizeof why), 0);
	assert_int_equal(v.calls, 0);
	assert_int_equal(vb_os_bsd_vnd_walk("wd0 vnd1 vnd2", "vnd", false, f_vnd_get, &v, out, names, 4, why,
					    sizeof why), -1);
	assert_string_equal(why, "vnd2 is attached, but VNDIOCGET names no file for it");
	v.fail_at = 1;
	assert_int_equal(vb_os_bsd_vnd_walk("wd0 vnd1", "vnd", false, f_vnd_get, &v, out, names, 4, why,
					    sizeof why), -1);
	assert_string_equal(why, "VNDIOCGET vnd1: Operation not permitted");
	v.fail_at = -1;
	assert_int_equal(vb_os_bsd_vnd_walk("vnd1 vnd290", "vnd", false, f_vnd_get, &v, out, names, 1, why,
					    sizeof why), -1);
	assert_int_equal(vb_os_bsd_vnd_walk("vnd1234567890", "vnd", false, f_vnd_get, &v, out,
					    names, 4, why, sizeof why), -1);
}

/* DragonFly's VNIOCGET (vnget, sys/dev/disk/vn/vn.c): ENXIO for a unit not on vn_list,
 * 0/0 for one not configured or made from swap (vn_get in bsd.c answers so for "swap"). */
static int f_vn_get(void *ctx, int unit, uint64_t *dev, uint64_t *ino)
{
	(void)ctx;
	if (unit == 7) {
		errno = ENXIO;
		return -1;
	}
	*dev = unit == 300 ? 0x2a00 : 0;
	*ino = unit == 300 ? 99 : 0;
	return 0;
}

/* attack-ports 8: DragonFly's vn units are those kern.disks lists (vn_create's
 * disk_create; sysctl_disks, sys/kern/subr_disk.c), vn0-vn3 always and clones past 255;
 * an idle one is skipped, one listed that VNIOCGET does not know refuses. */
static void test_dragonfly_vn_walk(void **state)
{
	struct vb_os_bsd_backing out[4];
	char names[4][16], why[128];

	(void)state;
	assert_int_equal(vb_os_bsd_vnd_walk("da0 vn0 vn1 vn2 vn3 vn300 vbd0 cd0", "vn", true,
					    f_vn_get, NULL, out, names, 4, why, sizeof why), 1);
	assert_string_equal(out[0].unit, "vn300");
	assert_true(out[0].dev == 0x2a00 && out[0].ino == 99);
	assert_int_equal(vb_os_bsd_vnd_walk("da0 vn0 vn7", "vn", true, f_vn_get, NULL, out, names,
					    4, why, sizeof why), -1);
	assert_string_equal(why, "VNIOCGET vn7: No such device or address");
}

/* Finding 8: the file systems that buffer what --direct asks to write directly, as their
 * kernels do it; finding 9: a raw disk is never cached. */
static void test_cache_truth(void **state)
{
	(void)state;
	assert_int_equal(vb_os_bsd_cache_truth("FreeBSD", "ufs", false), VB_CACHE_FS_BUFFERS);
	assert_int_equal(vb_os_bsd_cache_truth("DragonFly", "hammer2", false), VB_CACHE_FS_BUFFERS);
	assert_int_equal(vb_os_bsd_cache_truth("NetBSD", "ffs", false),
			 VB_CACHE_FS_BUFFERS_EXTENDING);
	assert_int_equal(vb_os_bsd_cache_truth("FreeBSD", "none", true), VB_CACHE_NONE);
	assert_int_equal(vb_os_bsd_cache_truth("NetBSD", "none", true), VB_CACHE_NONE);
	/* Finding 4: every other file system, as getmntinfo's f_fstypename names it on each
	 * system (mount(8) output: "tmpfs on /tmp (tmpfs, local)"), may buffer direct writes */
	static const char *const others[][2] = {
		{"FreeBSD", "tmpfs"}, {"FreeBSD", "ext2fs"}, {"FreeBSD", "fusefs"},
		{"FreeBSD", "fusefs.sshfs"}, {"FreeBSD", "nfs"}, {"FreeBSD", "msdosfs"},
		{"FreeBSD", "zfs"}, {"DragonFly", "hammer"}, {"DragonFly", "tmpfs"},
		{"DragonFly", "msdos"}, {"NetBSD", "tmpfs"}, {"NetBSD", "nfs"}, {"NetBSD", "msdos"},
		{"NetBSD", "ext2fs"}, {"NetBSD", "lfs"}, {"NetBSD", "zfs"},
	};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		assert_int_equal(vb_os_bsd_cache_truth(others[i][0], vb_os_bsd_fs_name(others[i][1]),
						       false), VB_CACHE_FS_MAY_BUFFER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_names),
		cmocka_unit_test(test_partition_to_disk),
		cmocka_unit_test(test_fs_names),
		cmocka_unit_test(test_geom_names_to_disks),
		cmocka_unit_test(test_geom_consumers),
		cmocka_unit_test(test_geom_text_not_whole),
		cmocka_unit_test(test_geom_own_open),
		cmocka_unit_test(test_geom_idle_devices),
		cmocka_unit_test(test_netbsd_wedges),
		cmocka_unit_test(test_long_mount_point_marked),
		cmocka_unit_test(test_stacked_units),
		cmocka_unit_test(test_names_by_identity),
		cmocka_unit_test(test_dragonfly_swap),
		cmocka_unit_test(test_files_in_use),
		cmocka_unit_test(test_dragonfly_mount_sources),
		cmocka_unit_test(test_geom_read_grown),
		cmocka_unit_test(test_netbsd_block_names),
		cmocka_unit_test(test_netbsd_partition_size),
		cmocka_unit_test(test_cache_truth),
		cmocka_unit_test(test_netbsd_vnd_walk),
		cmocka_unit_test(test_dragonfly_vn_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

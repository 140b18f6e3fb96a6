/* File system types by family, to tell a label's from the one measured; and what some
 * do to direct I/O and to a sync, known by name alone. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/vb_env.h"

/* Type names as labels and systems give them (Linux /proc/self/mountinfo, the BSDs'
 * f_fstypename, Windows' GetVolumeInformation), each with its family. */
static const struct {
	const char *name, *family;
} types[] = {
	{"ext2", "ext"}, {"ext3", "ext"}, {"ext4", "ext"}, {"ext2fs", "ext"}, {"ext4dev", "ext"},
	{"xfs", "xfs"}, {"btrfs", "btrfs"}, {"zfs", "zfs"}, {"ufs", "ufs"}, {"ufs2", "ufs"},
	{"ffs", "ufs"}, {"hammer", "hammer"}, {"hammer2", "hammer2"}, {"ntfs", "ntfs"},
	{"ntfs3", "ntfs"}, {"refs", "refs"}, {"fat", "fat"}, {"fat12", "fat"}, {"fat16", "fat"},
	{"fat32", "fat"}, {"vfat", "fat"}, {"msdos", "fat"}, {"msdosfs", "fat"},
	{"exfat", "exfat"}, {"f2fs", "f2fs"}, {"jfs", "jfs"}, {"reiserfs", "reiserfs"},
	{"nilfs2", "nilfs2"}, {"bcachefs", "bcachefs"}, {"tmpfs", "tmpfs"}, {"apfs", "apfs"},
	{"hfs", "hfs"}, {"hfsplus", "hfs"}, {"erofs", "erofs"}, {"squashfs", "squashfs"},
	{"udf", "udf"}, {"lfs", "lfs"}, {"jffs2", "jffs2"}, {"ubifs", "ubifs"},
};

/* The family of the n bytes at s as a type name (any case), or NULL. */
static const char *family(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i].name) == n && strncasecmp(types[i].name, s, n) == 0)
			return types[i].family;
	return NULL;
}

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool vb_label_names_other_fs(const char *label, const char *fs, char *word, size_t n)
{
	const char *mine = family(fs, strlen(fs)), *first = NULL;
	size_t first_len = 0;

	for (const char *p = label; *p != '\0';) {
		if (!alnum(*p)) {
			p++;
			continue;
		}
		size_t k = 0;
		while (alnum(p[k]))
			k++;
		const char *f = family(p, k);
		if (f != NULL && mine != NULL && strcmp(f, mine) == 0)
			return false;   /* it names the file system measured */
		if (f != NULL && first == NULL) {
			first = p;
			first_len = k;
		}
		p += k;
	}
	if (first == NULL)
		return false;
	snprintf(word, n, "%.*s", (int)first_len, first);
	return true;
}

bool vb_fs_direct_may_cache(const char *fs)
{
	/* ZFS takes O_DIRECT as a hint at most: the data still passes its ARC. */
	return strcmp(fs, "zfs") == 0;
}

/* A sync writes new metadata: btrfs and bcachefs log new extents (Linux
 * fs/btrfs/tree-log.c, fs/bcachefs/journal.c), ZFS commits ZIL records (zil.c), HAMMER
 * its records and UNDO (hammer_vnops.c, hammer_vop_fsync), HAMMER2 its chains
 * (hammer2_flush.c). */
bool vb_fs_copy_on_write(const char *fs)
{
	static const char *const cow[] = {"btrfs", "bcachefs", "zfs", "hammer", "hammer2"};

	for (size_t i = 0; i < sizeof cow / sizeof cow[0]; i++)
		if (strcmp(fs, cow[i]) == 0)
			return true;
	return false;
}

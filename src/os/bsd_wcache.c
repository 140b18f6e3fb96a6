/* FreeBSD's virtio driver shows its belief of a disk's write cache as
 * dev.vtblk.N.writecache_mode, 0 write through, 1 write back (sys/dev/virtio/block/
 * virtio_blk.c, vtblk_setup_sysctl, vtblk_write_cache_sysctl); disk vtbdN is vtblk unit N
 * (vtblk_alloc_disk names it VTBLK_DISK_NAME with the unit). Pure, compiled everywhere. */
#include "os/os_internal.h"

#include <stdio.h>
#include <string.h>

bool vb_os_bsd_vtblk_sysctl(const char *disk, char *name, size_t n)
{
	if (strncmp(disk, "vtbd", 4) != 0)
		return false;
	const char *unit = disk + 4;
	size_t len = strlen(unit);
	if (len == 0 || len > 6 || strspn(unit, "0123456789") != len || (len > 1 && unit[0] == '0'))
		return false;
	return snprintf(name, n, "dev.vtblk.%s.writecache_mode", unit) < (int)n;
}

const char *vb_os_bsd_vtblk_cache_mode(int mode)
{
	return mode == 0 ? "write through" : mode == 1 ? "write back" : NULL;
}

#ifndef VB_ENV_H
#define VB_ENV_H

#include <stddef.h>
#include <stdint.h>

/* Where a benchmark ran; every text field is "unknown" when it cannot be found. */
struct vb_env {
	char host[256];
	char os[64];              /* uname sysname, e.g. "Linux", "FreeBSD" */
	char kernel[128];         /* uname release */
	char fs[64];              /* filesystem type of the target: ext4, tmpfs, ufs, ... */
	char mount[1024];         /* mount point holding the target */
	char device[256];         /* block device under it: "vda", "loop0", "ada0" */
	char driver[64];          /* its driver: virtio_blk, ata_piix, ahci, nvme, sd, loop */
	uint32_t logical_block;   /* bytes, 0 when unknown */
	uint32_t physical_block;  /* bytes, 0 when unknown */
	uint64_t ram_bytes;       /* total RAM, 0 when unknown */
};

/* Detects the environment of path (a file, directory or device that exists). On Linux
 * it reads ROOT/proc/self/mountinfo and ROOT/sys, so tests can pass a fake tree as root;
 * pass "" for the real system. Never fails: what is not found stays "unknown". */
void vb_env_detect(struct vb_env *e, const char *path, const char *root);

/* Writes the default label, "<fs>-<driver>" (e.g. "ext4-virtio_blk"), into buf. */
void vb_env_label(const struct vb_env *e, char *buf, size_t n);

/* Linux vb_env_detect for a given device number, for tests: sets fs..physical_block. */
void vb_env_detect_dev(struct vb_env *e, const char *path, unsigned maj, unsigned min,
		const char *root);

/* Driver a BSD disk name means ("vtbd0" -> "virtio_blk"), else "unknown"; static. */
const char *vb_env_driver_for_name(const char *name);

#endif

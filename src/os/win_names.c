/* The pure rules of the Windows backend, compiled on every system so that the unit
 * tests check them where they run: driver and filesystem labels from what Windows
 * reports, and the in-use decision for a disk. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>

/* Lower-case ASCII copy of s into out, with anything outside [a-z0-9._-] as '_'. */
static void label_copy(const char *s, char *out, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return;
	for (; s[i] != '\0' && i + 1 < n; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		out[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			 c == '-' ? c : '_';
	}
	out[i] = '\0';
}

/* STORAGE_BUS_TYPE, as winioctl.h numbers it. */
static const char *const buses[] = {
	"unknown", "scsi", "atapi", "ata", "1394", "ssa", "fibre", "usb", "raid", "iscsi",
	"sas", "sata", "sd", "mmc", "virtual", "filebackedvirtual", "spaces", "nvme", "scm",
	"ufs",
};

void vb_win_driver_label(int bus, const char *service, char *out, size_t n)
{
	/* The storage driver names the disk best: viostor and vioscsi (virtio-win),
	 * storahci (AHCI), atapi or pciide (IDE), stornvme (NVMe). "disk" is the class
	 * driver every disk has, which says nothing. */
	if (service != NULL && service[0] != '\0' && strcmp(service, "disk") != 0) {
		label_copy(service, out, n);
		return;
	}
	if (bus > 0 && (size_t)bus < sizeof buses / sizeof buses[0])
		snprintf(out, n, "%s", buses[bus]);
	else
		snprintf(out, n, "unknown");
}

void vb_win_fs_label(const char *name, char *out, size_t n)
{
	if (name == NULL || name[0] == '\0')
		snprintf(out, n, "unknown");
	else if (strcmp(name, "RAW") == 0)
		snprintf(out, n, "none");
	else
		label_copy(name, out, n);
}

int vb_win_in_use(const struct vb_win_volume *v, size_t n_vols, char *holder, size_t n)
{
	for (size_t i = 0; i < n_vols; i++) {
		if (!v[i].on_disk)
			continue;
		const char *where = v[i].mount[0] ? v[i].mount : v[i].name;
		if (v[i].fs[0] != '\0' && strcmp(v[i].fs, "RAW") != 0) {
			snprintf(holder, n, "volume %s on it holds a %s filesystem", where, v[i].fs);
			return 1;
		}
		if (v[i].locked_by_other) {
			snprintf(holder, n, "volume %s on it is in use by another program", where);
			return 1;
		}
	}
	return 0;
}

/* The pure rules of the BSD backend, compiled on every system for the unit tests: disk
 * names and their drivers, partitions and slices, file system names, GEOM's answers. */
#include "os/os_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct name_driver {
	const char *name;
	const char *driver;
};

/* The BSDs name a disk after its driver. FreeBSD: vtbd (virtio), ada and ad (ATA), da
 * (CAM), nvd and nda (NVMe), md; DragonFly: vbd, ad, da, nvme, and acd and afd (nata's
 * ATAPI CD and floppy); NetBSD: ld, wd, sd, dk (a wedge); fd (floppy) on all three. */
static const struct name_driver disks[] = {
	{"vtbd", "virtio_blk"}, {"vbd", "virtio_blk"}, {"xbd", "xbd"},
	{"ada", "ata"}, {"ad", "ata"}, {"wd", "ata"},
	{"da", "scsi"}, {"sd", "scsi"}, {"ld", "ld"}, {"cd", "cd"},
	{"nvd", "nvme"}, {"nda", "nvme"}, {"nvme", "nvme"},
	{"md", "md"}, {"vnd", "vnd"}, {"vn", "vn"}, {"mmcsd", "mmc"}, {"dk", "dk"}, {"fd", "fd"},
	{"acd", "ata"}, {"afd", "ata"},
	{NULL, NULL}
};

/* The letters that start name, into letters; their count. */
static size_t letters_of(const char *name, char *letters, size_t n)
{
	size_t k = 0;

	while (k + 1 < n && name[k] >= 'a' && name[k] <= 'z') {
		letters[k] = name[k];
		k++;
	}
	letters[k] = '\0';
	return k;
}

static const char *lookup(const char *letters)
{
	for (size_t i = 0; disks[i].name; i++)
		if (strcmp(letters, disks[i].name) == 0)
			return disks[i].driver;
	return NULL;
}

/* The name without the "r" of a NetBSD or OpenBSD raw twin ("rwd0d" -> "wd0d"). */
static const char *unraw(const char *name)
{
	char letters[32];

	letters_of(name, letters, sizeof letters);
	if (name[0] == 'r' && lookup(letters) == NULL && lookup(letters + 1) != NULL)
		return name + 1;
	return name;
}

/* name without a leading "/dev/"; NULL when what is left is a path of its own: a name is
 * never matched to a disk by its last component ("zvol/tank/vm/ada1" is a ZFS volume,
 * "tank/backup/wd0" a dataset), only as a whole, or by the node it names (the caller). */
static const char *dev_name(const char *name)
{
	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	return strchr(name, '/') != NULL ? NULL : unraw(name);
}

const char *vb_os_bsd_driver_for_name(const char *name)
{
	char letters[32];
	const char *d;

	if (name == NULL || (name = dev_name(name)) == NULL)
		return vb_os_unknown;
	letters_of(name, letters, sizeof letters);
	d = lookup(letters);
	return d ? d : vb_os_unknown;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A partition suffix after the unit number: "p2" (GPT), "s1" or "s1a" (MBR slice and
 * label), "a" to "p" (a BSD label partition). */
static bool part_suffix(const char *s)
{
	if (*s == '\0')
		return true;
	if ((s[0] == 'p' || s[0] == 's') && is_digit(s[1])) {
		s++;
		while (is_digit(*s))
			s++;
		if (*s >= 'a' && *s <= 'p')
			s++;
		return *s == '\0';
	}
	return s[0] >= 'a' && s[0] <= 'p' && s[1] == '\0';
}

/* The length of the disk unit name starts with (a known driver's letters, a number), or
 * 0 when it starts with none. */
static size_t unit_len(const char *name)
{
	char letters[32];
	size_t k = letters_of(name, letters, sizeof letters);

	if (k == 0 || lookup(letters) == NULL || !is_digit(name[k]))
		return 0;
	while (is_digit(name[k]))
		k++;
	return k;
}

bool vb_os_bsd_plain_disk(const char *name)
{
	size_t k = unit_len(name);

	return k > 0 && name[k] == '\0';
}

bool vb_os_bsd_disk_of(const char *name, char *disk, size_t n)
{
	size_t k;

	if ((name = dev_name(name)) == NULL || (k = unit_len(name)) == 0)
		return false;
	if (!part_suffix(name + k) || k >= n)
		return false;
	memcpy(disk, name, k);
	disk[k] = '\0';
	return true;
}

/* Names are kept as the BSDs report them, but FAT: "msdos" on NetBSD and DragonFly,
 * "msdosfs" on FreeBSD. */
const char *vb_os_bsd_fs_name(const char *fstypename)
{
	return strcmp(fstypename, "msdos") == 0 ? "msdosfs" : fstypename;
}

/* "tmpfs": VFS_SET in FreeBSD's and DragonFly's sys/.../tmpfs_vfsops.c, MOUNT_TMPFS in
 * NetBSD's sys/sys/mount.h, which also has MOUNT_MFS "mfs". */
bool vb_os_bsd_fs_in_memory(const char *fstypename)
{
	return strcmp(fstypename, "tmpfs") == 0 || strcmp(fstypename, "mfs") == 0;
}

/* The next space-parted word of [*p, end) at *w; its length, 0 at the end. */
static size_t word(const char **p, const char *end, const char **w)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	*w = s;
	while (s < end && *s != ' ')
		s++;
	*p = s;
	return (size_t)(s - *w);
}

bool vb_os_bsd_geom_disk(const char *conftxt, const char *name, char *disk, size_t n)
{
	/* The DISK ancestor at each depth: a provider's line follows its parents'
	 * (g_conftxt_geom, sys/geom/geom_dump.c, writes "DEPTH CLASS NAME ..." and then what
	 * is made of it, one deeper). Lines are read in place, however long; a level whose
	 * disk is unknown, and every level below each line, is emptied, so that no line
	 * inherits a disk not its own. */
	char stack[16][128];
	size_t want = strlen(name);

	memset(stack, 0, sizeof stack);
	for (const char *p = conftxt; *p;) {
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p), *q = p, *dw, *cw, *nw;
		size_t dl = word(&q, end, &dw), cl = word(&q, end, &cw), nl = word(&q, end, &nw);
		unsigned depth = 0;
		bool ok = dl > 0 && dl < 3 && cl > 0 && nl > 0;
		for (size_t i = 0; ok && i < dl; i++) {
			ok = is_digit(dw[i]);
			depth = depth * 10 + (unsigned)(dw[i] - '0');
		}
		if (ok && depth < 16) {
			for (unsigned d = depth; d < 16; d++)
				stack[d][0] = '\0';
			if ((cl == 4 && memcmp(cw, "DISK", 4) == 0) || depth == 0) {
				if (nl < sizeof stack[depth]) {
					memcpy(stack[depth], nw, nl);
					stack[depth][nl] = '\0';
				}
			} else {
				memcpy(stack[depth], stack[depth - 1], sizeof stack[depth]);
			}
			if (nl == want && memcmp(nw, name, nl) == 0 && stack[depth][0] != '\0') {
				snprintf(disk, n, "%s", stack[depth]);
				return true;
			}
		}
		p = eol ? eol + 1 : end;
	}
	return false;
}

/* ---- GEOM: what FreeBSD says holds a disk ------------------------------------------- */

/* What kern.geom.confxml says, kept for the walk below: g is the index of the geom a
 * provider or consumer belongs to, p of the provider a consumer refers to (-1: none). */
struct geom_doc {
	struct gprov { char id[24], name[64]; long g; } *prov;
	struct ggeom { char id[24], cls[32], name[64]; } *geom;
	struct gcons { char prov[24], mode[16]; long g, p; } *cons;
	size_t n_prov, n_geom, n_cons;
};

/* The value of attribute attr ("id", "ref") in the tag text [p, end) into out. */
static void attr(const char *p, const char *end, const char *name, char *out, size_t n)
{
	size_t len = strlen(name);

	out[0] = '\0';
	for (; p + len + 2 < end; p++) {
		if (strncmp(p, name, len) == 0 && p[len] == '=' && p[len + 1] == '"') {
			const char *v = p + len + 2, *q = memchr(v, '"', (size_t)(end - v));
			if (q != NULL && (size_t)(q - v) < n) {
				memcpy(out, v, (size_t)(q - v));
				out[q - v] = '\0';
			}
			return;
		}
	}
}

/* Reads the text of an element that starts at p (after its opening tag) into out. */
static void text_of(const char *p, char *out, size_t n)
{
	const char *q = strchr(p, '<');
	size_t len = q ? (size_t)(q - p) : strlen(p);

	if (len >= n)
		len = n - 1;
	memcpy(out, p, len);
	out[len] = '\0';
}

/* Room for one more element of size bytes in *arr holding cnt; false without memory. */
static bool grow(void *arr, size_t cnt, size_t size)
{
	void **p = arr;

	if (cnt % 64 != 0)
		return true;
	void *q = realloc(*p, (cnt + 64) * size);
	if (q == NULL)
		return false;
	*p = q;
	return true;
}

#define GROW(arr, cnt) grow(&(arr), (cnt), sizeof *(arr))

/* The index of the first geom with id, or -1. */
static long geom_index(const struct geom_doc *d, const char *id)
{
	for (size_t i = 0; i < d->n_geom; i++)
		if (strcmp(d->geom[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* The index of the first provider with id, or -1. */
static long prov_index(const struct geom_doc *d, const char *id)
{
	for (size_t i = 0; i < d->n_prov; i++)
		if (strcmp(d->prov[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* Parses confxml into d: class (name), geom (id, name), provider (id, name), consumer
 * (provider ref, mode); false without memory. */
static bool geom_parse(const char *xml, struct geom_doc *d)
{
	const char *stack[16];
	char cls[32] = "";
	long cur = -1;   /* the geom being read: the first with its id */
	int depth = 0;

	memset(d, 0, sizeof *d);
	for (const char *p = strchr(xml, '<'); p != NULL; p = strchr(p + 1, '<')) {
		const char *end = strchr(p, '>');
		if (end == NULL)
			break;
		if (p[1] == '?' || p[1] == '!')
			continue;
		if (p[1] == '/') {
			if (depth > 0)
				depth--;
			continue;
		}
		const char *tag = p + 1;
		size_t tl = strcspn(tag, " />");
		bool empty = end[-1] == '/';
		const char *parent = depth > 0 ? stack[depth - 1] : "";
#define IS(s, t) (strlen(t) == tl && strncmp(s, t, tl) == 0)
		if (IS(tag, "geom") && strncmp(parent, "class", 5) == 0) {
			if (!GROW(d->geom, d->n_geom))
				return false;
			struct ggeom *g = &d->geom[d->n_geom++];
			memset(g, 0, sizeof *g);
			attr(tag, end, "id", g->id, sizeof g->id);
			vb_os_copy(g->cls, sizeof g->cls, cls);
			cur = geom_index(d, g->id);
		} else if (IS(tag, "provider") && strncmp(parent, "geom", 4) == 0) {
			if (!GROW(d->prov, d->n_prov))
				return false;
			struct gprov *pr = &d->prov[d->n_prov++];
			memset(pr, 0, sizeof *pr);
			attr(tag, end, "id", pr->id, sizeof pr->id);
			pr->g = cur;
		} else if (IS(tag, "consumer") && strncmp(parent, "geom", 4) == 0) {
			if (!GROW(d->cons, d->n_cons))
				return false;
			struct gcons *c = &d->cons[d->n_cons++];
			memset(c, 0, sizeof *c);
			c->g = cur;
		} else if (IS(tag, "provider") && strncmp(parent, "consumer", 8) == 0 && d->n_cons) {
			attr(tag, end, "ref", d->cons[d->n_cons - 1].prov, sizeof d->cons[0].prov);
		} else if (IS(tag, "mode") && strncmp(parent, "consumer", 8) == 0 && d->n_cons) {
			text_of(end + 1, d->cons[d->n_cons - 1].mode, sizeof d->cons[0].mode);
		} else if (IS(tag, "name")) {
			if (strncmp(parent, "class", 5) == 0)
				text_of(end + 1, cls, sizeof cls);
			else if (strncmp(parent, "geom", 4) == 0 && d->n_geom)
				text_of(end + 1, d->geom[d->n_geom - 1].name, sizeof d->geom[0].name);
			else if (strncmp(parent, "provider", 8) == 0 && d->n_prov)
				text_of(end + 1, d->prov[d->n_prov - 1].name, sizeof d->prov[0].name);
		}
#undef IS
		if (!empty && depth < 16)
			stack[depth++] = tag;
	}
	for (size_t c = 0; c < d->n_cons; c++)
		d->cons[c].p = prov_index(d, d->cons[c].prov);
	return true;
}

static void geom_free(struct geom_doc *d)
{
	free(d->prov);
	free(d->geom);
	free(d->cons);
}

/* A consumer's access mode ("r1w0e0") into its three counts; false when it is not one. */
static bool mode_of(const char *m, int acc[3])
{
	int got = 0;

	return sscanf(m, "r%dw%de%d%n", &acc[0], &acc[1], &acc[2], &got) == 3 && m[got] == '\0' &&
	       acc[0] >= 0 && acc[1] >= 0 && acc[2] >= 0;
}

/* Whether d hangs together as the kernel writes it (g_conf_geom, g_conf_provider and
 * g_conf_consumer in sys/geom/geom_dump.c): each geom and provider has its own pointer as
 * id, and a consumer refers to a provider listed or to none. Otherwise a walk by id could
 * pass a holder by, so why says the disk's use cannot be told. */
static bool geom_whole(const struct geom_doc *d, char *why, size_t n)
{
	const char *bad = NULL;

	for (size_t i = 0; bad == NULL && i < d->n_geom; i++)
		if (d->geom[i].id[0] == '\0' || geom_index(d, d->geom[i].id) != (long)i)
			bad = d->geom[i].id;
	for (size_t i = 0; bad == NULL && i < d->n_prov; i++)
		if (d->prov[i].id[0] == '\0' || prov_index(d, d->prov[i].id) != (long)i)
			bad = d->prov[i].id;
	if (bad != NULL && bad[0] == '\0') {
		snprintf(why, n, "cannot tell whether it is in use: GEOM lists a part without "
			 "an id");
		return false;
	}
	if (bad != NULL) {
		snprintf(why, n, "cannot tell whether it is in use: GEOM gives two of its parts "
			 "the id %s", bad);
		return false;
	}
	for (size_t c = 0; c < d->n_cons; c++)
		if (d->cons[c].prov[0] != '\0' && d->cons[c].p < 0) {
			snprintf(why, n, "cannot tell whether it is in use: a GEOM consumer uses "
				 "provider %s, which GEOM does not list", d->cons[c].prov);
			return false;
		}
	return true;
}

/* Adds to in every provider made from one in it, up to the leaves. */
static void grow_up(const struct geom_doc *d, bool *in)
{
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t c = 0; c < d->n_cons; c++) {
			if (d->cons[c].p < 0 || !in[d->cons[c].p])
				continue;
			for (size_t j = 0; j < d->n_prov; j++)
				if (!in[j] && d->prov[j].g == d->cons[c].g)
					in[j] = grew = true;
		}
	}
}

int vb_os_bsd_geom_busy(const char *confxml, const char *disk, const char *target, int own_r,
			int own_w, char *holder, size_t n)
{
	struct geom_doc d;
	bool *in = NULL, *chain = NULL;
	int rc = 0;

	if (!geom_parse(confxml, &d) || (in = calloc(d.n_prov + 1, sizeof *in)) == NULL ||
	    (chain = calloc(d.n_geom + 1, sizeof *chain)) == NULL) {
		free(in);
		geom_free(&d);
		snprintf(holder, n, "cannot tell whether it is in use: out of memory");
		return -1;
	}
	if (!geom_whole(&d, holder, n)) {
		free(in);
		free(chain);
		geom_free(&d);
		return -1;
	}
	/* The disk's providers, then everything made from them, down to the leaves. */
	for (size_t i = 0; i < d.n_prov; i++)
		in[i] = strcmp(d.prov[i].name, disk) == 0;
	grow_up(&d, in);
	/* The geoms vbench's own open passes through, target down to disk: each passes its
	 * providers' access on to what it consumes (g_part_access, sys/geom/part/g_part.c:
	 * g_access(cp, dr, dw, dw + de); g_slice_access, geom_slice.c, adds an e bit), so
	 * their consumers hold nothing of their own. */
	for (size_t i = 0; target != NULL && i < d.n_prov; i++)
		if (in[i] && strcmp(d.prov[i].name, target) == 0 && d.prov[i].g >= 0)
			chain[d.prov[i].g] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t c = 0; c < d.n_cons; c++) {
			const struct gcons *cs = &d.cons[c];
			long below = cs->p >= 0 ? d.prov[cs->p].g : -1;
			if (cs->g >= 0 && chain[cs->g] && below >= 0 && !chain[below])
				chain[below] = grew = true;
		}
	}
	/* A target made of several disks (a concat, a mirror) lies on each of them. */
	bool more = false;
	for (size_t c = 0; c < d.n_cons; c++) {
		const struct gcons *cs = &d.cons[c];
		if (cs->g >= 0 && chain[cs->g] && cs->p >= 0 && !in[cs->p])
			in[cs->p] = more = true;
	}
	if (more)
		grow_up(&d, in);
	/* Any other open consumer holds the disk; the deepest names it best. A device node
	 * is one DEV consumer however often open (g_dev_open, sys/geom/geom_dev.c, adds each
	 * open's counts): the target's holds vbench's own open, and the rest is another
	 * program's. CONCAT, STRIPE, MIRROR, RAID, NOP and the rest hold the disk even idle:
	 * they open their consumers only when their own provider is opened (g_concat_access,
	 * g_stripe_access: "On first open, grab an extra exclusive bit"), showing r0w0e0.
	 * Only PART and LABEL are mere views of a range (g_part_access, g_slice_access),
	 * whose providers are looked at in turn. */
	const struct gcons *best = NULL;
	const struct gprov *on = NULL;
	for (size_t c = 0; c < d.n_cons && rc == 0; c++) {
		const struct gcons *cs = &d.cons[c];
		int acc[3];
		if (cs->g < 0 || cs->p < 0 || !in[cs->p])
			continue;
		const struct ggeom *g = &d.geom[cs->g];
		if (!mode_of(cs->mode, acc)) {
			snprintf(holder, n, "cannot tell whether it is in use: GEOM gives %s an "
				 "access mode vbench cannot read", d.prov[cs->p].name);
			rc = -1;
			break;
		}
		if (strcmp(g->cls, "DEV") != 0 && chain[cs->g])
			continue;
		if (strcmp(g->cls, "DEV") == 0 && target != NULL &&
		    strcmp(d.prov[cs->p].name, target) == 0) {
			acc[0] -= own_r;
			acc[1] -= own_w;
			if (acc[0] < 0 || acc[1] < 0) {
				snprintf(holder, n, "cannot tell whether it is in use: GEOM shows less "
					 "open on /dev/%s (access %s) than vbench's own r%dw%de0",
					 target, cs->mode, own_r, own_w);
				rc = -1;
			} else if (acc[0] + acc[1] + acc[2] > 0) {
				snprintf(holder, n, "another program has /dev/%s open (GEOM DEV access "
					 "%s, of which vbench's own is r%dw%de0)", target,
					 cs->mode, own_r, own_w);
				rc = 1;
			}
			continue;
		}
		bool idle = acc[0] + acc[1] + acc[2] == 0;
		if (idle && (strcmp(g->cls, "DEV") == 0 || strcmp(g->cls, "PART") == 0 ||
			     strcmp(g->cls, "LABEL") == 0))
			continue;
		bool leaf = true;
		for (size_t j = 0; j < d.n_prov; j++)
			leaf &= d.prov[j].g != cs->g;
		if (best == NULL || leaf) {
			best = cs;
			on = &d.prov[cs->p];
		}
	}
	if (rc == 0 && best != NULL) {
		const struct ggeom *g = &d.geom[best->g];
		if (strcmp(g->cls, "DEV") == 0)
			snprintf(holder, n, "another program has /dev/%s open (GEOM DEV access %s)",
				 on->name, best->mode);
		else if (strcmp(best->mode, "r0w0e0") == 0)
			snprintf(holder, n, "%s is part of GEOM class %s (%s), configured though "
				 "not open now", on->name, g->cls, g->name);
		else
			snprintf(holder, n, "%s is held by GEOM class %s (%s, access %s)", on->name,
				 g->cls, g->name, best->mode);
		rc = 1;
	}
	free(chain);
	free(in);
	geom_free(&d);
	return rc;
}

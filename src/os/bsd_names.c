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
 * provider or consumer belongs to, p of the provider a consumer refers to (-1: none).
 * A provider's name is a device's (SPECNAMELEN, 255 bytes); a geom's may add a prefix. */
struct geom_doc {
	struct gprov { char id[24], name[256], mode[40]; long g; } *prov;
	struct ggeom { char id[24], cls[32], name[320]; long rank; } *geom;
	struct gcons { char id[24], prov[24], mode[40]; long g, p; } *cons;
	struct gclass { char id[24], name[32]; } *cls;
	size_t n_prov, n_geom, n_cons, n_cls;
};

enum { GEOM_NO_ATTR, GEOM_ID, GEOM_REF };

/* The elements g_conf_class, g_conf_geom, g_conf_consumer and g_conf_provider write
 * (sys/geom/geom_dump.c), each under its parent, with the one attribute each has; what
 * a class's dumpconf writes inside <config> is its own. Anything else is not the
 * kernel's text, and a holder could hide in it. */
static const struct { const char *parent, *name; int attr; } geom_grammar[] = {
	{"", "mesh", GEOM_NO_ATTR}, {"mesh", "class", GEOM_ID},
	{"class", "name", GEOM_NO_ATTR}, {"class", "geom", GEOM_ID},
	{"geom", "class", GEOM_REF}, {"geom", "name", GEOM_NO_ATTR},
	{"geom", "rank", GEOM_NO_ATTR}, {"geom", "wither", GEOM_NO_ATTR},
	{"geom", "config", GEOM_NO_ATTR}, {"geom", "consumer", GEOM_ID},
	{"geom", "provider", GEOM_ID}, {"consumer", "geom", GEOM_REF},
	{"consumer", "provider", GEOM_REF}, {"consumer", "mode", GEOM_NO_ATTR},
	{"consumer", "config", GEOM_NO_ATTR}, {"provider", "geom", GEOM_REF},
	{"provider", "mode", GEOM_NO_ATTR}, {"provider", "name", GEOM_NO_ATTR},
	{"provider", "alias", GEOM_NO_ATTR}, {"provider", "mediasize", GEOM_NO_ATTR},
	{"provider", "sectorsize", GEOM_NO_ATTR}, {"provider", "stripesize", GEOM_NO_ATTR},
	{"provider", "stripeoffset", GEOM_NO_ATTR}, {"provider", "wither", GEOM_NO_ATTR},
	{"provider", "config", GEOM_NO_ATTR},
};

/* The elements open while reading: their names, as pointers into the text. */
#define GEOM_DEPTH 32
struct geom_open { const char *tag; size_t len; };

/* Whether the element open at o is named name. */
static bool open_is(const struct geom_open *o, const char *name)
{
	return o->len == strlen(name) && strncmp(o->tag, name, o->len) == 0;
}

/* The attribute text [p, end) as exactly ` id="VALUE"` (or ref) into out of n bytes, the
 * only form g_conf_* write; false for any other, an empty value, or one too long. */
static bool geom_attr(const char *p, const char *end, int attr, char *out, size_t n)
{
	const char *key = attr == GEOM_ID ? " id=\"" : " ref=\"";
	size_t kl = strlen(key);

	out[0] = '\0';
	if (attr == GEOM_NO_ATTR)
		return p == end;
	if ((size_t)(end - p) < kl + 2 || strncmp(p, key, kl) != 0 || end[-1] != '"')
		return false;
	size_t vl = (size_t)(end - 1 - (p + kl));
	if (vl == 0 || vl >= n || memchr(p + kl, '"', vl) != NULL)
		return false;
	memcpy(out, p + kl, vl);
	out[vl] = '\0';
	return true;
}

/* The text of an element, from p to the next tag, into out of n bytes, with the
 * kernel's escapes undone (g_conf_cat_escaped writes & < > ' " and bytes past 0x7e as
 * &#xNN;); false when it does not fit or holds an & of another kind. */
static bool geom_text(const char *p, char *out, size_t n)
{
	size_t k = 0;

	for (; *p != '\0' && *p != '<'; p++) {
		unsigned v = 0;
		int used = 0;
		char c = *p;
		if (c == '&') {
			if (sscanf(p, "&#x%2x;%n", &v, &used) != 1 || used < 5 || p[used - 1] != ';')
				return false;
			c = (char)v;
			p += used - 1;
		}
		if (k + 1 >= n)
			return false;
		out[k++] = c;
	}
	out[k] = '\0';
	return true;
}

/* A count in an access mode or a rank: decimal digits up to INT_MAX, at *p; advances. */
static bool geom_count(const char **p, long *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		*v = *v * 10 + (*s - '0');
		if (*v > 2147483647L)
			return false;
	}
	*p = s;
	return true;
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

/* What one element, opened at tag (tl bytes) under parent with attribute text [a, end),
 * adds to d; false with why when it is not what the kernel writes there. */
static bool geom_element(struct geom_doc *d, const struct geom_open *parent, const char *tag,
			 size_t tl, const char *a, const char *end, const char *text, char *why,
			 size_t n)
{
	char val[24];
	int attr = -1;
	const char *pn = "", *name = "";   /* the grammar's names of parent and element */

	for (size_t i = 0; i < sizeof geom_grammar / sizeof geom_grammar[0]; i++)
		if (strlen(geom_grammar[i].name) == tl && strncmp(geom_grammar[i].name, tag, tl) == 0 &&
		    (parent == NULL ? geom_grammar[i].parent[0] == '\0'
				    : open_is(parent, geom_grammar[i].parent))) {
			attr = geom_grammar[i].attr;
			pn = geom_grammar[i].parent;
			name = geom_grammar[i].name;
			break;
		}
	if (attr < 0) {
		snprintf(why, n, "cannot tell whether it is in use: GEOM's text has <%.*s> where "
			 "the kernel writes none", (int)(tl < 40 ? tl : 40), tag);
		return false;
	}
	if (!geom_attr(a, end, attr, val, sizeof val)) {
		vb_msgf(why, n, "cannot tell whether it is in use: GEOM's text has a <%s> whose "
			"attributes are not the kernel's", name);
		return false;
	}
	struct gclass *c = d->n_cls ? &d->cls[d->n_cls - 1] : NULL;
	struct ggeom *g = d->n_geom ? &d->geom[d->n_geom - 1] : NULL;
	bool ok = true;
#define IS(t, pt) (strlen(t) == tl && strncmp(tag, t, tl) == 0 && strcmp(pn, pt) == 0)
	if (IS("class", "mesh")) {
		if (!GROW(d->cls, d->n_cls))
			goto nomem;
		c = &d->cls[d->n_cls++];
		memset(c, 0, sizeof *c);
		vb_os_copy(c->id, sizeof c->id, val);
	} else if (IS("name", "class")) {
		ok = c->name[0] == '\0' && geom_text(text, c->name, sizeof c->name) &&
		     c->name[0] != '\0';
		for (size_t i = 0; ok && i + 1 < d->n_cls; i++)
			ok = strcmp(d->cls[i].name, c->name) != 0 && strcmp(d->cls[i].id, c->id) != 0;
	} else if (IS("geom", "class")) {
		if (c->name[0] == '\0') {
			ok = false;
		} else {
			if (!GROW(d->geom, d->n_geom))
				goto nomem;
			g = &d->geom[d->n_geom++];
			memset(g, 0, sizeof *g);
			vb_os_copy(g->id, sizeof g->id, val);
			vb_os_copy(g->cls, sizeof g->cls, c->name);
		}
	} else if (IS("class", "geom")) {
		ok = strcmp(val, c->id) == 0;
	} else if (IS("name", "geom")) {
		ok = geom_text(text, g->name, sizeof g->name);
	} else if (IS("rank", "geom")) {
		ok = g->rank == 0 && geom_count(&text, &g->rank) && *text == '<' && g->rank > 0;
	} else if (IS("consumer", "geom")) {
		if (!GROW(d->cons, d->n_cons))
			goto nomem;
		struct gcons *cs = &d->cons[d->n_cons++];
		memset(cs, 0, sizeof *cs);
		vb_os_copy(cs->id, sizeof cs->id, val);
		cs->g = (long)d->n_geom - 1;
		cs->p = -1;
	} else if (IS("provider", "geom")) {
		if (!GROW(d->prov, d->n_prov))
			goto nomem;
		struct gprov *pr = &d->prov[d->n_prov++];
		memset(pr, 0, sizeof *pr);
		vb_os_copy(pr->id, sizeof pr->id, val);
		pr->g = (long)d->n_geom - 1;
	} else if (IS("geom", "consumer") || IS("geom", "provider")) {
		ok = strcmp(val, g->id) == 0;
	} else if (IS("provider", "consumer")) {
		struct gcons *cs = &d->cons[d->n_cons - 1];
		ok = cs->prov[0] == '\0';
		vb_os_copy(cs->prov, sizeof cs->prov, val);
	} else if (IS("mode", "consumer")) {
		struct gcons *cs = &d->cons[d->n_cons - 1];
		ok = cs->mode[0] == '\0' && geom_text(text, cs->mode, sizeof cs->mode);
	} else if (IS("mode", "provider")) {
		struct gprov *pr = &d->prov[d->n_prov - 1];
		ok = pr->mode[0] == '\0' && geom_text(text, pr->mode, sizeof pr->mode);
	} else if (IS("name", "provider")) {
		struct gprov *pr = &d->prov[d->n_prov - 1];
		ok = pr->name[0] == '\0' && geom_text(text, pr->name, sizeof pr->name);
	}
#undef IS
	if (!ok)
		vb_msgf(why, n, "cannot tell whether it is in use: GEOM's text has a <%s> in "
			"<%s> that is missing, repeated, too long or unreadable", name, pn);
	return ok;
nomem:
	snprintf(why, n, "cannot tell whether it is in use: out of memory");
	return false;
}

/* Whether the element open at o holds text (a name, count or size), not elements. */
static bool geom_texty(const struct geom_open *o)
{
	static const char *const names[] = {"name", "rank", "mode", "alias", "mediasize",
					    "sectorsize", "stripesize", "stripeoffset"};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (open_is(o, names[i]))
			return true;
	return false;
}

/* Whether [p, end) holds a tag of an element g_conf_* write (<consumer>, </provider>...). */
static bool geom_structure_in(const char *p, const char *end)
{
	static const char *const names[] = {"mesh", "class", "geom", "consumer", "provider",
					    "config"};

	for (p = memchr(p, '<', (size_t)(end - p)); p != NULL;
	     p = memchr(p + 1, '<', (size_t)(end - p - 1))) {
		const char *t = p + 1 + (p[1] == '/');
		size_t tl = strcspn(t, " \t\r\n/>");
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (tl == strlen(names[i]) && strncmp(t, names[i], tl) == 0)
				return true;
		if (end - p <= 1)
			break;
	}
	return false;
}

/* Reads confxml into d, the whole of it as g_conf_specific writes it: one <mesh> whose
 * every element is closed, the kernel's elements under their parents. A text cut short
 * or not the kernel's could leave a holder out, so it is refused with why. */
static bool geom_parse(const char *xml, struct geom_doc *d, char *why, size_t n)
{
	struct geom_open stack[GEOM_DEPTH];
	int depth = 0;
	bool mesh_seen = false, mesh_done = false;
	const char *p = xml, *bad = NULL;

	memset(d, 0, sizeof *d);
	for (;;) {
		const char *lt = strchr(p, '<');
		const char *stop = lt != NULL ? lt : p + strlen(p);
		/* Text is the kernel's only in the elements that hold a name, count or size. */
		if ((depth == 0 || !geom_texty(&stack[depth - 1])) &&
		    strspn(p, " \t\r\n") < (size_t)(stop - p)) {
			bad = depth == 0 ? "text outside its <mesh>" : "text between its elements";
			break;
		}
		if (lt == NULL)
			break;
		const char *gt = strchr(lt, '>');
		if (gt == NULL) {
			bad = "a tag that does not end";
			break;
		}
		p = gt + 1;
		if (lt[1] == '?' && !mesh_seen && gt[-1] == '?' && gt - lt >= 3)
			continue;   /* an XML declaration, before the mesh */
		bool closing = lt[1] == '/';
		const char *tag = lt + 1 + closing;
		size_t tl = strcspn(tag, " \t\r\n/>");
		bool empty = !closing && gt[-1] == '/' && gt - 1 >= tag + tl;
		if (tl == 0 || tag + tl > gt || mesh_done) {
			bad = mesh_done ? "more after its </mesh>" : "a tag that is not one";
			break;
		}
		if (closing) {
			if (depth == 0 || tag + tl != gt || stack[depth - 1].len != tl ||
			    strncmp(stack[depth - 1].tag, tag, tl) != 0) {
				bad = "a closing tag that closes no open element";
				break;
			}
			mesh_done = --depth == 0;
			continue;
		}
		if (!geom_element(d, depth > 0 ? &stack[depth - 1] : NULL, tag, tl, tag + tl,
				  empty ? gt - 1 : gt, gt + 1, why, n))
			return false;
		if (depth == 0)
			mesh_seen = mesh_done = true;   /* undone below when it is not empty */
		if (empty)
			continue;
		if (tl == 6 && strncmp(tag, "config", 6) == 0) {
			/* A class's own words, some not escaped (g_raid_dumpconf writes a volume's
			 * label as given): skipped whole, unless they hold the kernel's elements. */
			const char *close = strstr(p, "</config>");
			if (close == NULL || geom_structure_in(p, close)) {
				bad = close == NULL ? "a <config> that does not end"
						    : "GEOM's own elements inside a <config>";
				break;
			}
			p = close + strlen("</config>");
			continue;
		}
		mesh_done = false;
		if (depth == GEOM_DEPTH) {
			bad = "elements nested deeper than the kernel's";
			break;
		}
		stack[depth++] = (struct geom_open){tag, tl};
	}
	if (bad == NULL && !mesh_done)
		bad = "an end before its </mesh>: it is not whole";
	if (bad != NULL) {
		vb_msgf(why, n, "cannot tell whether it is in use: GEOM's text has %s", bad);
		return false;
	}
	for (size_t c = 0; c < d->n_cons; c++)
		d->cons[c].p = d->cons[c].prov[0] != '\0' ? prov_index(d, d->cons[c].prov) : -1;
	return true;
}

static void geom_free(struct geom_doc *d)
{
	free(d->prov);
	free(d->geom);
	free(d->cons);
	free(d->cls);
}

/* A consumer's access mode ("r1w0e0") into its three counts; false when it is not one. */
static bool mode_of(const char *m, int acc[3])
{
	static const char letter[3] = {'r', 'w', 'e'};

	for (int i = 0; i < 3; i++) {
		long v;
		if (*m++ != letter[i] || !geom_count(&m, &v))
			return false;
		acc[i] = (int)v;
	}
	return *m == '\0';
}

/* Whether counts from mode_of show any open (each may be INT_MAX: never summed). */
static bool any_open(const int acc[3])
{
	return acc[0] != 0 || acc[1] != 0 || acc[2] != 0;
}

/* Whether d hangs together as the kernel writes it (g_conf_geom, g_conf_provider and
 * g_conf_consumer in sys/geom/geom_dump.c): each geom and provider has its own pointer as
 * id, a consumer refers to a provider listed or to none, and a geom ranks above every
 * geom it consumes from (redo_rank, sys/geom/geom_subr.c, so there is no loop). Otherwise
 * a walk could pass a holder by, so why says the disk's use cannot be told. */
static bool geom_whole(const struct geom_doc *d, char *why, size_t n)
{
	const char *bad = NULL;

	for (size_t i = 0; bad == NULL && i < d->n_geom; i++)
		if (geom_index(d, d->geom[i].id) != (long)i)
			bad = d->geom[i].id;
	for (size_t i = 0; bad == NULL && i < d->n_prov; i++)
		if (prov_index(d, d->prov[i].id) != (long)i)
			bad = d->prov[i].id;
	for (size_t c = 0; bad == NULL && c < d->n_cons; c++) {
		if (prov_index(d, d->cons[c].id) >= 0 || geom_index(d, d->cons[c].id) >= 0)
			bad = d->cons[c].id;
		for (size_t k = 0; bad == NULL && k < c; k++)
			if (strcmp(d->cons[k].id, d->cons[c].id) == 0)
				bad = d->cons[c].id;
	}
	if (bad != NULL) {
		vb_msgf(why, n, "cannot tell whether it is in use: GEOM gives two of its parts "
			"the id %s", bad);
		return false;
	}
	for (size_t c = 0; c < d->n_cons; c++) {
		const struct gcons *cs = &d->cons[c];
		if (cs->prov[0] != '\0' && cs->p < 0) {
			vb_msgf(why, n, "cannot tell whether it is in use: a GEOM consumer uses "
				"provider %s, which GEOM does not list", cs->prov);
			return false;
		}
		int acc[3];
		if (!mode_of(cs->mode, acc) || (cs->p < 0 && any_open(acc))) {
			vb_msgf(why, n, "cannot tell whether it is in use: GEOM gives a consumer of "
				"geom %s the access mode \"%s\", which is not one it can have",
				d->geom[cs->g].id, cs->mode);
			return false;
		}
		if (cs->p >= 0 && d->geom[cs->g].rank <= d->geom[d->prov[cs->p].g].rank) {
			vb_msgf(why, n, "cannot tell whether it is in use: GEOM's ranks do not "
				"order geom %s above provider %s, which it uses",
				d->geom[cs->g].id, cs->prov);
			return false;
		}
	}
	/* g_access adds each change to a consumer and to its provider alike, so a provider's
	 * counts are its consumers' sum: counts no consumer explains are a holder not shown. */
	for (size_t i = 0; i < d->n_prov; i++) {
		long long sum[3] = {0, 0, 0};
		int acc[3];
		for (size_t c = 0; c < d->n_cons; c++)
			if (d->cons[c].p == (long)i && mode_of(d->cons[c].mode, acc))
				for (int k = 0; k < 3; k++)
					sum[k] += acc[k];
		if (!mode_of(d->prov[i].mode, acc) || acc[0] != sum[0] || acc[1] != sum[1] ||
		    acc[2] != sum[2]) {
			vb_msgf(why, n, "cannot tell whether it is in use: GEOM gives %s the access "
				"mode \"%s\", which its consumers' do not add up to",
				d->prov[i].name, d->prov[i].mode);
			return false;
		}
	}
	/* A device node's geom consumes one provider and makes none (g_dev_taste); a PART or
	 * LABEL geom consumes one (g_part_taste, g_slice_new); each is named after it: another
	 * shape is not theirs. */
	for (size_t g = 0; g < d->n_geom; g++) {
		const char *cls = d->geom[g].cls;
		bool dev = strcmp(cls, "DEV") == 0;
		if (!dev && strcmp(cls, "PART") != 0 && strcmp(cls, "LABEL") != 0)
			continue;
		size_t cons = 0, provs = 0;
		bool named = true;   /* after the provider it consumes (g_new_geomf "%s") */
		for (size_t c = 0; c < d->n_cons; c++)
			if (d->cons[c].g == (long)g) {
				cons++;
				named &= d->cons[c].p < 0 ||
					 strcmp(d->prov[d->cons[c].p].name, d->geom[g].name) == 0;
			}
		for (size_t i = 0; i < d->n_prov; i++)
			provs += d->prov[i].g == (long)g;
		if (cons > 1 || !named || (dev && provs > 0)) {
			vb_msgf(why, n, "cannot tell whether it is in use: GEOM's %s geom %s has a "
				"shape no %s geom has", cls, d->geom[g].id, cls);
			return false;
		}
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

	if (!geom_parse(confxml, &d, holder, n) || !geom_whole(&d, holder, n)) {
		geom_free(&d);
		return -1;
	}
	if ((in = calloc(d.n_prov + 1, sizeof *in)) == NULL ||
	    (chain = calloc(d.n_geom + 1, sizeof *chain)) == NULL) {
		free(in);
		geom_free(&d);
		snprintf(holder, n, "cannot tell whether it is in use: out of memory");
		return -1;
	}
	/* The disk's providers, then everything made from them, down to the leaves. A disk
	 * GEOM does not list is one whose holders it cannot show. */
	bool listed = false;
	for (size_t i = 0; i < d.n_prov; i++)
		listed |= in[i] = strcmp(d.prov[i].name, disk) == 0;
	if (!listed) {
		free(in);
		free(chain);
		geom_free(&d);
		vb_msgf(holder, n, "cannot tell whether it is in use: GEOM does not list %s",
			disk);
		return -1;
	}
	grow_up(&d, in);
	/* The geoms vbench's own open passes through, target down to disk: each passes its
	 * providers' access on to what it consumes (g_part_access, sys/geom/part/g_part.c:
	 * g_access(cp, dr, dw, dw + de); g_slice_access, geom_slice.c, adds an e bit), so
	 * their consumers hold nothing of their own. */
	int named = 0;
	for (size_t i = 0; target != NULL && i < d.n_prov; i++)
		if (in[i] && strcmp(d.prov[i].name, target) == 0 && d.prov[i].g >= 0) {
			chain[d.prov[i].g] = true;
			named++;
		}
	if (named > 1) {
		free(in);
		free(chain);
		geom_free(&d);
		vb_msgf(holder, n, "cannot tell whether it is in use: GEOM names two providers "
			"%s", target);
		return -1;
	}
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
	int dev_seen = 0;
	for (size_t c = 0; c < d.n_cons && rc == 0; c++) {
		const struct gcons *cs = &d.cons[c];
		int acc[3];
		if (cs->g < 0 || cs->p < 0 || !in[cs->p])
			continue;
		const struct ggeom *g = &d.geom[cs->g];
		if (!mode_of(cs->mode, acc)) {
			vb_msgf(holder, n, "cannot tell whether it is in use: GEOM gives %s an "
				"access mode vbench cannot read", d.prov[cs->p].name);
			rc = -1;
			break;
		}
		if (strcmp(g->cls, "DEV") != 0 && chain[cs->g])
			continue;
		if (strcmp(g->cls, "DEV") == 0 && target != NULL &&
		    strcmp(d.prov[cs->p].name, target) == 0) {
			/* a node has one DEV consumer (g_dev_taste tastes a provider once) */
			if (dev_seen++) {
				vb_msgf(holder, n, "cannot tell whether it is in use: GEOM shows "
					"/dev/%s open through two device nodes", target);
				rc = -1;
				break;
			}
			acc[0] -= own_r;
			acc[1] -= own_w;
			if (acc[0] < 0 || acc[1] < 0) {
				vb_msgf(holder, n, "cannot tell whether it is in use: GEOM shows less "
					"open on /dev/%s (access %s) than vbench's own r%dw%de0",
					target, cs->mode, own_r, own_w);
				rc = -1;
			} else if (any_open(acc)) {
				vb_msgf(holder, n, "another program has /dev/%s open (GEOM DEV access "
					"%s, of which vbench's own is r%dw%de0)", target,
					cs->mode, own_r, own_w);
				rc = 1;
			}
			continue;
		}
		bool idle = !any_open(acc);
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
	if (rc == 0 && best == NULL && dev_seen == 0 && target != NULL && (own_r || own_w)) {
		/* vbench's open shows on the target's node while it holds it: text without it
		 * is not of now */
		vb_msgf(holder, n, "cannot tell whether it is in use: GEOM does not show "
			"vbench's own open of /dev/%s", target);
		rc = -1;
	}
	if (rc == 0 && best != NULL) {
		const struct ggeom *g = &d.geom[best->g];
		if (strcmp(g->cls, "DEV") == 0)
			vb_msgf(holder, n, "another program has /dev/%s open (GEOM DEV access %s)",
				on->name, best->mode);
		else if (strcmp(best->mode, "r0w0e0") == 0)
			vb_msgf(holder, n, "%s is part of GEOM class %s (%s), configured though "
				"not open now", on->name, g->cls, g->name);
		else
			vb_msgf(holder, n, "%s is held by GEOM class %s (%s, access %s)", on->name,
				g->cls, g->name, best->mode);
		rc = 1;
	}
	free(chain);
	free(in);
	geom_free(&d);
	return rc;
}

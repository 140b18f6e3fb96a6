/* Small helpers every platform file shares; compiled on every system. */
#include "os_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

const char vb_os_unknown[] = "unknown";

struct timespec vb_os_deadline_in(uint64_t ns)
{
	struct timespec ts = {0, 0};

	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t nsec = (uint64_t)ts.tv_nsec + ns % 1000000000ULL;
	ts.tv_sec += (time_t)(ns / 1000000000ULL + nsec / 1000000000ULL);
	ts.tv_nsec = (long)(nsec % 1000000000ULL);
	return ts;
}

void vb_os_copy(char *dst, size_t n, const char *src)
{
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i + 1 < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

const char *vb_os_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void vb_os_env_reset(struct vb_env *e)
{
	memset(e, 0, sizeof *e);
	vb_os_copy(e->host, sizeof e->host, vb_os_unknown);
	vb_os_copy(e->os, sizeof e->os, vb_os_unknown);
	vb_os_copy(e->kernel, sizeof e->kernel, vb_os_unknown);
	vb_os_copy(e->fs, sizeof e->fs, vb_os_unknown);
	vb_os_copy(e->mount, sizeof e->mount, vb_os_unknown);
	vb_os_copy(e->device, sizeof e->device, vb_os_unknown);
	vb_os_copy(e->driver, sizeof e->driver, vb_os_unknown);
}

bool vb_path_split_at(const char *path, const char *seps, char *dir, size_t dn, char *base,
		      size_t bn)
{
	size_t len = strlen(path), cut = len;
	int w;

	if (len == 0 || strchr(seps, path[len - 1]) != NULL)
		return false;
	while (cut > 0 && strchr(seps, path[cut - 1]) == NULL)
		cut--;
	if (cut == 0)
		w = snprintf(dir, dn, ".");
	else if (cut == 1)
		w = snprintf(dir, dn, "%c", path[0]);
	else
		w = snprintf(dir, dn, "%.*s", (int)(cut - 1), path);
	if (w < 0 || (size_t)w >= dn)
		return false;
	w = snprintf(base, bn, "%s", path + cut);
	return w > 0 && (size_t)w < bn;
}

bool vb_cpu_list_parse(const char *s, bool *set, int n)
{
	for (int i = 0; i < n; i++)
		set[i] = false;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s == '\0')
		return true;   /* an empty list: no CPU */
	for (;;) {
		long lo = 0, hi;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9') {
			lo = lo * 10 + (*s++ - '0');
			if (lo > 1000000)
				return false;
		}
		hi = lo;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				return false;
			hi = 0;
			while (*s >= '0' && *s <= '9') {
				hi = hi * 10 + (*s++ - '0');
				if (hi > 1000000)
					return false;
			}
			if (hi < lo)
				return false;
		}
		for (long c = lo; c <= hi && c < n; c++)
			set[c] = true;
		if (*s == ',') {
			s++;
			continue;
		}
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		return *s == '\0';
	}
}

char *vb_cpu_list_format(const bool *set, int n, char *buf, size_t size)
{
	size_t at = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (int c = 0; c < n; c++) {
		if (!set[c])
			continue;
		int end = c;
		while (end + 1 < n && set[end + 1])
			end++;
		char item[32];
		int len = end > c ? snprintf(item, sizeof item, "%s%d-%d", at ? "," : "", c, end)
				  : snprintf(item, sizeof item, "%s%d", at ? "," : "", c);
		if (len < 0 || (size_t)len >= size - at)
			break;   /* a cut entry would name other CPUs */
		memcpy(buf + at, item, (size_t)len + 1);
		at += (size_t)len;
		c = end;
	}
	return buf;
}

int vb_cpu_writer(int n, const bool *allowed, const bool *irq, int current)
{
	if (irq == NULL || (current >= 0 && current < n && irq[current]))
		return current;
	for (int c = 0; c < n; c++)
		if (allowed[c] && irq[c])
			return c;
	return current;
}

/* The class of CPU c for the maker when the writer is on CPU writer: 3 more when it
 * takes none of the disk's interrupts; then 2 shares the writer's cache and is not its
 * sibling, 1 is not its sibling, 0 is one; -1 not to be used. */
static int maker_class(int c, const bool *allowed, const bool *same_cache,
		       const bool *siblings, const bool *irq, int writer)
{
	if (!allowed[c] || c == writer)
		return -1;
	int quiet = irq != NULL && !irq[c] ? 3 : 0;
	if (siblings != NULL && siblings[c])
		return quiet;
	return quiet + (same_cache != NULL && same_cache[c] ? 2 : 1);
}

int vb_cpu_maker_set(int n, const bool *allowed, const bool *same_cache, const bool *siblings,
		     const bool *irq, int writer, bool *out)
{
	int best = -1, count = 0;

	for (int c = 0; c < n; c++) {
		int cls = maker_class(c, allowed, same_cache, siblings, irq, writer);
		best = cls > best ? cls : best;
	}
	for (int c = 0; c < n; c++) {
		out[c] = best >= 0 &&
			 maker_class(c, allowed, same_cache, siblings, irq, writer) == best;
		count += out[c];
	}
	return count;
}

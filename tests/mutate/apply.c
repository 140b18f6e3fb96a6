/* apply [-n] NAME OLD NEW FILE...: for `make mutate`, replaces the one occurrence of the
 * text OLD in the definitions of NAME (a function, or a table at file scope) among the
 * FILEs with NEW, and prints the path of the file changed; -n only checks and prints it.
 * A mutation is anchored to its function, not to a file or a line, so that moving code
 * keeps the list valid; a name that each system's file defines (vb_os_fam_sync) is one
 * anchor, and the text picks the definition. Exits 0 when done; 3 when the anchor is
 * gone (no such name, or OLD in none of its bodies); 4 when OLD occurs more than once;
 * 2 on a usage or I/O error. A definition is the project's style: a function is a line
 * at column 0 naming NAME( and, before any line ending in ';', a line "{", its body
 * ending at the next line "}"; a table is a line at column 0 naming NAME[ or NAME =,
 * ending at the next line "};". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *b = realloc(buf, cap);
			if (b == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* What the line at p (up to its newline) defines under the name: 'f' for a function
 * ("name("), 'd' for data ("name[" or "name ="), 0 when it does not name it. */
static int names(const char *p, const char *eol, const char *name)
{
	size_t nl = strlen(name);

	for (const char *q = p; q + nl < eol; q++) {
		if (memcmp(q, name, nl) != 0 || (q > p && ident(q[-1])))
			continue;
		if (q[nl] == '(')
			return 'f';
		if (q[nl] == '[' || (q[nl] == ' ' && q + nl + 1 < eol && q[nl + 1] == '='))
			return 'd';
	}
	return 0;
}

static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');
	return e ? e : p + strlen(p);
}

static const char *next_line(const char *p)
{
	const char *e = line_end(p);
	return *e ? e + 1 : e;
}

/* The start of the body of the definition whose first line is p (a function's "{" line,
 * or the data's first line), NULL when p begins a prototype. */
static const char *body_of(const char *p, int kind)
{
	if (kind == 'd')
		return p;
	/* the header may run over several lines; a ';' first means a prototype */
	for (const char *q = p; *q; q = next_line(q)) {
		const char *e = line_end(q);
		if (e == q + 1 && q[0] == '{')
			return q;
		if (e > q && e[-1] == ';')
			return NULL;
	}
	return NULL;
}

/* Counts the occurrences of old in the bodies of every definition of name in text (up to
 * 2, meaning more than one), remembering the first in *at; *defs counts definitions. */
static int scan(const char *text, const char *name, const char *old, const char **at, int *defs)
{
	size_t ol = strlen(old);
	int n = 0;

	for (const char *p = text; *p; p = next_line(p)) {
		int kind;
		if (*p == ' ' || *p == '\t' || *p == '#' || *p == '/' || *p == '*' || *p == '}' ||
		    *p == '\n' || (kind = names(p, line_end(p), name)) == 0)
			continue;
		const char *from = body_of(p, kind);
		if (from == NULL)
			continue;
		const char *to = strstr(from, kind == 'f' ? "\n}\n" : "\n};\n");
		if (to == NULL)
			to = from + strlen(from);
		++*defs;
		for (const char *q = from; q + ol <= to && n < 2; q++)
			if (memcmp(q, old, ol) == 0 && n++ == 0)
				*at = q;
		p = to;
	}
	return n;
}

int main(int argc, char **argv)
{
	int dry = argc > 1 && strcmp(argv[1], "-n") == 0;

	argv += dry, argc -= dry;
	if (argc < 5 || argv[1][0] == '\0' || argv[2][0] == '\0') {
		fputs("usage: apply [-n] NAME OLD NEW FILE...\n", stderr);
		return 2;
	}
	const char *name = argv[1], *old = argv[2], *new = argv[3];
	const char *file = NULL, *at = NULL;
	char *text = NULL;
	size_t len = 0;
	int defs = 0, found = 0;

	for (int i = 4; i < argc; i++) {
		size_t l;
		char *t = slurp(argv[i], &l);
		const char *a = NULL;
		if (t == NULL) {
			perror(argv[i]);
			free(text);
			return 2;
		}
		int n = scan(t, name, old, &a, &defs);
		if (n > 0 && found == 0) {
			file = argv[i], text = t, len = l, at = a;
		} else {
			free(t);
		}
		found += n;
	}
	if (found != 1) {
		if (defs == 0)
			fprintf(stderr, "apply: %s is defined nowhere\n", name);
		else
			fprintf(stderr, "apply: the text occurs %s in %s\n",
				found ? "more than once" : "nowhere", name);
		free(text);
		return found > 1 ? 4 : 3;
	}
	if (dry) {
		puts(file);
		free(text);
		return 0;
	}
	FILE *f = fopen(file, "wb");
	if (f == NULL) {
		perror(file);
		free(text);
		return 2;
	}
	size_t before = (size_t)(at - text), ol = strlen(old);
	int bad = fwrite(text, 1, before, f) != before || fputs(new, f) == EOF ||
		  fwrite(at + ol, 1, len - before - ol, f) != len - before - ol;
	bad |= fclose(f) != 0;
	free(text);
	if (bad)
		return 2;
	puts(file);
	return 0;
}

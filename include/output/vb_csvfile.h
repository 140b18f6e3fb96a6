#ifndef VB_CSVFILE_H
#define VB_CSVFILE_H

/* --csv-append: one file many invocations append to, so whole rows only, one header,
 * and no appender ever interleaved with another. */

#include <stdbool.h>
#include "common/vb_buf.h"
#include "common/vb_status.h"

struct vb_csvfile {
	int fd;
	bool created;         /* this session created the file */
	const char *path;     /* as given, for messages */
	const char *option;   /* the option that named it, for messages */
};

/* Opens path for appending: a regular file with one name, never through a link, never
 * blocking. VB_OK, or VB_E_SETUP with the reason in err. */
enum vb_status vb_csvfile_open(struct vb_csvfile *cf, const char *path, struct vb_err *err);

/* vb_csvfile_open for the file of another option (--trace), named so in messages. */
enum vb_status vb_csvfile_open_as(struct vb_csvfile *cf, const char *option, const char *path,
				  struct vb_err *err);

/* Appends row (a whole CSV row ending in CRLF), preceded by header when the file is
 * empty, under an exclusive lock held at most a few seconds, as one unit: when the disk
 * fills halfway, what was written of it is cut off again. VB_OK, or VB_E_IO with err. */
enum vb_status vb_csvfile_append(struct vb_csvfile *cf, const struct vb_buf *header,
				 const struct vb_buf *row, struct vb_err *err);

/* Closes the file, after removing it when this session created it and it holds nothing
 * (no row was written to it), so that a session that refused or failed before its first
 * row leaves no empty file; an existing file is never removed. VB_E_IO with err when the
 * close reports an error, or when the empty file could not be removed (err names it). */
enum vb_status vb_csvfile_close(struct vb_csvfile *cf, struct vb_err *err);

#endif

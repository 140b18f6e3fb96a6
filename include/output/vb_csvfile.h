#ifndef VB_CSVFILE_H
#define VB_CSVFILE_H

/* --csv-append: many invocations append whole rows, one header, never interleaved. */

#include <stdbool.h>
#include "common/vb_buf.h"
#include "common/vb_status.h"

struct vb_csvfile {
	int fd;
	bool created;         /* this session created the file */
	const char *path;     /* as given, for messages */
	const char *option;   /* the option that named it, for messages */
};

/* Opens path, named by option ("--csv-append", "--trace") in messages, to append: a
 * regular file with one name, no link, never blocking. VB_OK, or VB_E_SETUP with err. */
enum vb_status vb_csvfile_open(struct vb_csvfile *cf, const char *option, const char *path,
			       struct vb_err *err);

/* Appends row (header first into an empty file) under an exclusive lock, as one unit: a
 * row cut by a full disk is cut off again. VB_OK, or VB_E_IO with err. */
enum vb_status vb_csvfile_append(struct vb_csvfile *cf, const struct vb_buf *header,
				 const struct vb_buf *row, struct vb_err *err);

/* Closes the file, removing it when this session created it and wrote no row (never an
 * existing file). VB_E_IO with err when the close or the removal fails. */
enum vb_status vb_csvfile_close(struct vb_csvfile *cf, struct vb_err *err);

#endif

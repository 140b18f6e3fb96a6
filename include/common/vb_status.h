#ifndef VB_STATUS_H
#define VB_STATUS_H

/* The one error convention: a module returns a status and leaves a sentence in a
 * struct vb_err; only main.c turns a status into an exit code. */

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum vb_status {
	VB_OK = 0,
	VB_E_USAGE,   /* the command line asked for something impossible */
	VB_E_SETUP,   /* the target or an output file is refused or unusable */
	VB_E_IO       /* a run failed, or results could not be written */
};

/* Room for a sentence naming a path (PATH_MAX, 4096 on Linux, and words around it). */
#define VB_PATH_MSG_MAX 4608

/* A status with the sentence that explains it (no "vbench:" prefix, no newline). */
struct vb_err {
	enum vb_status status;
	char msg[1536];
};

#if defined(__MINGW_PRINTF_FORMAT)
/* A C library whose printf is not the one GCC assumes: check against the one linked. */
#define VB_PRINTF(a, b) __attribute__((format(__MINGW_PRINTF_FORMAT, a, b)))
#elif defined(__GNUC__)
#define VB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VB_PRINTF(a, b)
#endif

/* snprintf into buf of n bytes, except that a text that does not fit is cut in the
 * middle with a marker (vb_text_cut): a long path never hides the reason after it. */
void vb_vmsgf(char *buf, size_t n, const char *fmt, va_list ap);
void vb_msgf(char *buf, size_t n, const char *fmt, ...) VB_PRINTF(3, 4);

/* Sets e (may be NULL) to status s with a message (vb_msgf); returns s. */
enum vb_status vb_fail(struct vb_err *e, enum vb_status s, const char *fmt, ...)
	VB_PRINTF(3, 4);

#endif

#ifndef VB_SYSFEATURES_H
#define VB_SYSFEATURES_H

/* Included first by the modules that need more than POSIX (platform, env): it asks each
 * C library to show its extensions (O_DIRECT, O_TMPFILE, F_NOCACHE, statfs fields).
 * It must come before any system header, since the headers read these macros once. */
#define _GNU_SOURCE
#define _DARWIN_C_SOURCE
#define _NETBSD_SOURCE
#define _BSD_SOURCE
#define _DEFAULT_SOURCE

#endif

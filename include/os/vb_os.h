#ifndef VB_OS_H
#define VB_OS_H

/* The platform layer: everything that differs from one operating system to another,
 * behind one small interface. One implementation file per family lives in src/os/
 * (posix.c for what POSIX systems share, linux.c, bsd.c, macos.c, windows.c); the rest
 * of vbench names no operating system. What the writer and the target checks call is
 * the ops table of vb_io.h (vb_os_io); this header holds the rest. */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "common/vb_env.h"
#include "common/vb_io.h"

/* What this build of vbench can do here, decided once at compile time. */
struct vb_caps {
	const char *direct_how;     /* how --direct bypasses the cache ("O_DIRECT",
				     * "F_NOCACHE", ...), or NULL when it cannot */
	const char *fsync_call;     /* what --sync fsync calls ("fsync", "F_FULLFSYNC") */
	const char *fdatasync_call; /* what --sync fdatasync calls ("fdatasync", or "fsync"
				     * where fdatasync is not declared) */
	const char *dsync_how;      /* how --sync dsync opens ("O_DSYNC", ...) */
	bool chr_disks;             /* disks are character devices (the BSDs) */
	const char *status_how;     /* what asks for a status line ("SIGUSR1", ...) */
	const char *qd_refused;     /* why --qd above 1 cannot be done here, or NULL */
	bool disks_uncached;        /* the system never caches writes to a disk device, so
				     * a disk target is direct I/O whatever is asked */
};

/* The capabilities of this build. */
const struct vb_caps *vb_os_caps(void);

/* Nanoseconds of a monotonic clock (CLOCK_MONOTONIC, QueryPerformanceCounter). */
uint64_t vb_os_now_ns(void);

/* Sleeps about ms milliseconds (less when a signal arrives). */
void vb_os_sleep_ms(unsigned ms);

/* The realtime clock ns nanoseconds from now: the deadline pthread_cond_timedwait takes
 * everywhere. (A step of that clock only lengthens or shortens one wait.) */
struct timespec vb_os_deadline_in(uint64_t ns);

/* Replaces argc and argv by the command line as UTF-8 where the system hands main()
 * something else (Windows: the ANSI code page); elsewhere leaves them as they are. */
void vb_os_args(int *argc, char ***argv);

/* Makes sure descriptors 0, 1 and 2 are open (on the null device if they were closed),
 * so that no file vbench opens later takes their place. Returns a mask of those that
 * were closed (1 << fd). */
unsigned vb_os_std_fds(void);

/* Whether descriptor fd is a terminal. */
bool vb_os_isatty(int fd);

/* Bytes of memory that can be allocated now, or 0 when the system does not say. */
uint64_t vb_os_avail_mem(void);

/* Fills buf with n bytes of the kernel's randomness; 0, or -1 with errno. What it reads
 * is opened at the first call and held to the end. */
int vb_os_urandom(void *buf, size_t n);

/* What vb_os_urandom reads, for messages ("/dev/urandom"). */
const char *vb_os_randomness(void);

/* Fills e (vb_env.h) for the target open as fd, whose path as given is path: host,
 * system, kernel, RAM, and the filesystem, mount, device, driver and block sizes under
 * it. Never fails: what cannot be found stays "unknown". */
void vb_os_detect(struct vb_env *e, int fd, const char *path);

/* Bytes that can still be written to the file system of directory dirfd by this process
 * (statvfs: the blocks free to all, and those it keeps for privileged users only when
 * this process is one to it); 0 with *bytes, or -1 when the system does not say
 * (Windows, a file system without a size such as ramfs). */
int vb_os_free_bytes(int dirfd, uint64_t *bytes);

/* The largest file this process may write (RLIMIT_FSIZE, ulimit -f): 0 with *bytes, or
 * -1 when there is no limit (Windows has none). */
int vb_os_file_size_limit(uint64_t *bytes);

/* Refuses a target path for what it names, before anything is opened (opening some
 * devices already acts on them): Windows refuses reserved device names such as COM1 in
 * any component, volumes and devices other than whole disks and NUL. 0, or -1 with the
 * reason (a sentence fragment after the path) in why. */
int vb_os_target_name_check(const char *path, char *why, size_t n);

/* Splits path into the directory that holds its last component ("." when there is
 * none, the root for a top-level name) and that component, by this system's
 * separators; false when path names no file (empty, or ending with a separator). */
bool vb_os_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn);

/* Memory aligned to align bytes (a power of two), for direct I/O; NULL with errno.
 * Freed with vb_os_aligned_free. */
void *vb_os_aligned_alloc(size_t align, size_t n);
void vb_os_aligned_free(void *p);

/* The descriptor of a stdio stream, and a stdio stream over a descriptor. */
int vb_os_fileno(FILE *f);
FILE *vb_os_stream(int fd, const char *mode);

/* Writes all n bytes to fd, continuing short writes; 0, or -1 with errno. */
int vb_os_write_all(int fd, const void *buf, size_t n);

/* ---- signals -------------------------------------------------------------------- */

/* Flags the signal handlers set. They are lock-free atomics, which a handler may write,
 * and they may live in memory shared with the session's child (vb_os_shared). */
struct vb_sigflags {
	atomic_int stop;      /* the signal that asked to stop, VB_STOPFLAG_TIMEOUT, or 0 */
	atomic_int status;    /* a status line was asked for */
};

/* The value of vb_sigflags.stop when --timeout, not a signal, ended a run. */
#define VB_STOPFLAG_TIMEOUT (-1)

/* Installs the handlers, which only set f's fields: every signal whose default action
 * ends the process and that can be sent from outside stops (a fault signal only when it
 * was sent, not raised by a fault); the status signals (SIGUSR1, SIGINFO) ask for a
 * status line; a file-size limit becomes an EFBIG error instead of a signal. A stop
 * signal ignored when vbench started (nohup) stays ignored. Handlers do not restart
 * calls, so a blocked write returns to look at the flags. */
void vb_os_signals_install(struct vb_sigflags *f);

/* From now on, sets *flag when this process is continued after a stop (SIGCONT). */
void vb_os_on_resume(atomic_int *flag);

/* Ends the process the way signal signo would (so that a calling shell sees it), after
 * restoring its default action; where there are no signals, exits with 128 + signo. */
_Noreturn void vb_os_die(int signo);

/* ---- threads --------------------------------------------------------------------- */

/* The stack of each thread vb_os_thread_start starts. */
#define VB_THREAD_STACK_BYTES (256u << 10)

/* Starts fn(arg) in a new thread with a small stack (VB_THREAD_STACK_BYTES), which takes no signal but (when
 * wakeable) the one vb_os_thread_wake sends, so that signals reach the thread whose call
 * they must interrupt. Returns 0, or an errno value. */
int vb_os_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, bool wakeable);

/* An opaque handle of a thread that vb_os_thread_wake can interrupt. */
typedef struct vb_os_thread *vb_os_thread_t;

/* The calling thread's handle, for vb_os_thread_wake. */
vb_os_thread_t vb_os_thread_self(void);

/* Interrupts a call the thread is blocked in (a write, a sync), so that it returns with
 * EINTR and looks at the stop flag; harmless when it is not blocked. */
void vb_os_thread_wake(vb_os_thread_t t);

/* ---- the session's child ----------------------------------------------------------- */

/* The session (setup, runs, output files, cleanup) happens in a child: a process where
 * there are processes, so that a call stuck in the kernel (a frozen filesystem, a hung
 * disk) cannot keep vbench from reporting and exiting; a thread elsewhere. The child
 * sends its runs over a channel descriptor, for the watcher to report if it must give
 * the child up. */
struct vb_child;

/* Whether the child is a process of its own (else a thread of this one). */
bool vb_os_child_is_process(void);

/* Zeroed memory that this process and its child both see; NULL with errno. It lives
 * until the process ends. */
void *vb_os_shared(size_t n);

/* Starts fn(arg, channel) in the child; fn's return value is its exit status. A child
 * process's standard input is the null device and its standard output and error are
 * pipes that vb_os_guard_pump copies to this process's own; a child thread shares this
 * process's. NULL with errno when no child can be started. */
struct vb_child *vb_os_child_start(int (*fn)(void *arg, int channel), void *arg);

/* Reads up to n bytes the child sent, waiting at most ms milliseconds: the count read,
 * 0 when the child closed its end, or -1 with errno (EAGAIN: nothing yet). */
ssize_t vb_os_child_read(struct vb_child *w, void *buf, size_t n, unsigned ms);

/* In the child: whether the process that started it is gone (killed with SIGKILL), so
 * that it stops writing instead of writing on for nobody. */
bool vb_os_child_orphaned(void);

/* Passes signal signo on to the child (a status request, a stop). */
void vb_os_child_signal(struct vb_child *w, int signo);

/* Interrupts the call the child is blocked in. */
void vb_os_child_wake(struct vb_child *w);

/* Waits at most ms milliseconds for the child to end: true when it has, with its exit
 * status in *status, or the signal that killed it in *signo (else 0). */
bool vb_os_child_wait(struct vb_child *w, unsigned ms, int *status, int *signo);

/* Gives up on a child that does not end: kills it where that is possible, and never
 * waits for it. */
void vb_os_child_abandon(struct vb_child *w);

/* Closes this side of the channel and frees w (the child itself is not waited for). */
void vb_os_child_free(struct vb_child *w);

/* Waits at most ms for output of the child, for its channel to hold something, or for
 * this process's standard output or error to take what it holds of it, and moves some
 * output on; true when any moved. It never blocks on the user's descriptors: what they
 * have not taken waits here, and the child waits on its full pipe. With drop (a stop signal
 * is pending and the reader has not taken the output since), what is held is dropped, as
 * is all that follows, so that the child can end. What cannot be written (a reader gone)
 * is read and dropped as well. */
bool vb_os_guard_pump(struct vb_child *w, unsigned ms, bool drop);

/* Whether output of the child waits for this process's standard output or error. */
bool vb_os_guard_pending(const struct vb_child *w);

/* Why what vb_os_guard_pump copied could not all be written to this process's standard
 * output (*out) and error (*err): the errno of the first write that failed, else 0. */
void vb_os_guard_lost(const struct vb_child *w, int *out, int *err);

/* ---- output files ------------------------------------------------------------------ */

/* Opens path to append to it, creating it (mode 0666 less the umask) if needed: the last
 * component must not be a link, and only a regular file with one name is accepted,
 * decided before anything is opened for writing (opening a FIFO wakes its reader, opening
 * a device acts on it); it never blocks. Returns the descriptor, or -1 with a sentence in
 * why that names no option; *created says whether this open created the file (always
 * false where a file open for appending cannot be removed, Windows). */
int vb_os_append_open(const char *path, bool *created, char *why, size_t n);

/* Takes vbench's own locks on the target open as fd (for writing), held while fd stays
 * open, in this process and any it forks: an exclusive open-file-description lock on
 * the whole file where the system has them (else a POSIX one), and an exclusive flock.
 * A second vbench, or a program that locks what it uses (QEMU locks its disk images and
 * disks), is then refused, and refuses vbench. Returns 0; 1 when another holds a lock
 * (why says so); -1 when the lock cannot be taken at all (why says why). */
int vb_os_hold(int fd, char *why, size_t n);

/* Whether other (an output: the CSV file, standard output, as vb_os_io.fstat describes
 * it; a regular file or a disk) and what is open as fd (the target, its directory, or
 * another output) are one storage: the same file, the same disk or a part of it, a file
 * on the other's disk, a loop device backed by the other, by every name the system gives
 * them (Linux: loop backings, overlay layers, btrfs subvolumes, partitions). 1 with a
 * sentence fragment in why, 0 when not, -1 when it cannot be told (why says why). */
int vb_os_same_storage(int fd, const struct vb_fileinfo *other, char *why, size_t n);

/* Takes an exclusive lock on the whole file fd, waiting at most ms; 0, or -1 with errno
 * (ETIMEDOUT when another holder kept it). vb_os_unlock releases it. */
int vb_os_lock(int fd, unsigned ms);
void vb_os_unlock(int fd);

/* Cuts fd to len bytes (to take back a short write). */
int vb_os_truncate_to(int fd, uint64_t len);

/* Reads up to n bytes at offset of fd; the count, or -1 with errno. */
ssize_t vb_os_pread(int fd, void *buf, size_t n, uint64_t offset);

/* Creates a new file with a unique name "PREFIX-XXXXXXXX.tmp" in dirfd, exclusively
 * and without following links (mode 0666 less the umask); its name goes into name.
 * Returns the descriptor, or -1 with errno. */
int vb_os_create_temp(int dirfd, const char *prefix, char *name, size_t n);

/* Opens name in dirfd for reading, refusing a link and anything but a regular file,
 * without blocking; the descriptor, or -1 with errno (ELOOP for a link, EINVAL for
 * another kind of file). */
int vb_os_open_read(int dirfd, const char *name);

/* Renames from to to, both in dirfd, replacing to (which is not followed if a link). */
int vb_os_rename(int dirfd, const char *from, const char *to);

#endif

#ifndef VB_OS_H
#define VB_OS_H

/* The platform layer: what differs between operating systems (src/os/), so that the rest
 * of vbench names none. The writer and target checks use vb_io.h's ops table (vb_os_io). */

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
	const char *direct_how;     /* how --direct bypasses the cache, or NULL: cannot */
	const char *fdatasync_call; /* what --sync fdatasync calls */
	bool chr_disks;             /* disks are character devices (the BSDs) */
	const char *qd_refused;     /* why --qd above 1 cannot be done here, or NULL */
	bool disks_uncached;        /* disk writes are never cached: always direct I/O */
};

/* The capabilities of this build. */
const struct vb_caps *vb_os_caps(void);

/* Nanoseconds of a monotonic clock (CLOCK_MONOTONIC, QueryPerformanceCounter). */
uint64_t vb_os_now_ns(void);

/* Sleeps about ms milliseconds (less when a signal arrives). */
void vb_os_sleep_ms(unsigned ms);

/* The realtime clock ns nanoseconds from now, as pthread_cond_timedwait takes it. */
struct timespec vb_os_deadline_in(uint64_t ns);

/* Replaces argc and argv by the command line as UTF-8 where main() gets something else
 * (Windows: the ANSI code page). */
void vb_os_args(int *argc, char ***argv);

/* Opens descriptors 0-2 on the null device where closed, so that no file vbench opens
 * takes their place; the mask (1 << fd) of those that were closed. */
unsigned vb_os_std_fds(void);

/* Whether descriptor fd is a terminal. */
bool vb_os_isatty(int fd);

/* Bytes of memory that can be allocated now, or 0 when the system does not say. */
uint64_t vb_os_avail_mem(void);

/* Fills buf with n bytes of the kernel's randomness (opened once, then held); 0, or -1
 * with errno. */
int vb_os_urandom(void *buf, size_t n);

/* What vb_os_urandom reads, for messages ("/dev/urandom"). */
const char *vb_os_randomness(void);

/* Fills e (vb_env.h) for the target open as fd at path: host, system, kernel, RAM and
 * what lies under it. What cannot be found stays "unknown". */
void vb_os_detect(struct vb_env *e, int fd, const char *path);

/* Bytes this process can still write to the file system of dirfd (the reserve counted
 * only when it may use it); 0 with *bytes, or -1 when the system does not say. */
int vb_os_free_bytes(int dirfd, uint64_t *bytes);

/* The largest file this process may write (RLIMIT_FSIZE): 0 with *bytes, or -1: none. */
int vb_os_file_size_limit(uint64_t *bytes);

/* Refuses a target path by its name alone, since opening some devices acts on them
 * (Windows: COM1 and the like, volumes); 0, or -1 with the reason in why. */
int vb_os_target_name_check(const char *path, char *why, size_t n);

/* Splits path into its directory ("." when none) and last component; false when path
 * names no file (empty, or ending with a separator). */
bool vb_os_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn);

/* Memory aligned to align bytes (a power of two) for direct I/O; NULL with errno. */
void *vb_os_aligned_alloc(size_t align, size_t n);
void vb_os_aligned_free(void *p);

/* The descriptor of a stdio stream, and a stdio stream over a descriptor. */
int vb_os_fileno(FILE *f);
FILE *vb_os_stream(int fd, const char *mode);

/* Writes all n bytes to fd, continuing short writes; 0, or -1 with errno. */
int vb_os_write_all(int fd, const void *buf, size_t n);

/* ---- signals -------------------------------------------------------------------- */

/* Flags the signal handlers set: lock-free atomics, which a handler may write, possibly
 * in memory shared with the session's child. */
struct vb_sigflags {
	atomic_int stop;      /* the signal that asked to stop, VB_STOPFLAG_TIMEOUT, or 0 */
	atomic_int status;    /* a status line was asked for */
};

/* The value of vb_sigflags.stop when --timeout, not a signal, ended a run. */
#define VB_STOPFLAG_TIMEOUT (-1)

/* Installs handlers that only set f: a signal that would end the process stops (a fault
 * signal only when sent), SIGUSR1/SIGINFO ask for a status line, SIGXFSZ becomes EFBIG.
 * Ignored stop signals (nohup) stay ignored; calls are not restarted, so a blocked
 * write returns to look at the flags. */
void vb_os_signals_install(struct vb_sigflags *f);

/* From now on, sets *flag when this process is continued after a stop (SIGCONT). */
void vb_os_on_resume(atomic_int *flag);

/* Ends the process by signal signo's default action, so that a calling shell sees it
 * (where there are no signals, exit 128 + signo). */
_Noreturn void vb_os_die(int signo);

/* ---- threads --------------------------------------------------------------------- */

/* The stack of each thread vb_os_thread_start starts. */
#define VB_THREAD_STACK_BYTES (256u << 10)

/* Starts fn(arg) in a thread with a VB_THREAD_STACK_BYTES stack that takes no signal but
 * (when wakeable) vb_os_thread_wake's, so that signals reach the thread they must
 * interrupt. 0, or an errno value. */
int vb_os_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, bool wakeable);

/* An opaque handle of a thread that vb_os_thread_wake can interrupt. */
typedef struct vb_os_thread *vb_os_thread_t;

/* The calling thread's handle, for vb_os_thread_wake. */
vb_os_thread_t vb_os_thread_self(void);

/* Makes a call the thread is blocked in return EINTR; harmless when it is not. */
void vb_os_thread_wake(vb_os_thread_t t);

/* ---- the session's child ----------------------------------------------------------- */

/* The session runs in a child process (a thread on Windows), so that a call stuck in
 * the kernel cannot keep vbench from reporting and exiting. The child sends its runs
 * over a channel, for the watcher to report if it must give the child up. */
struct vb_child;

/* Whether the child is a process of its own (else a thread of this one). */
bool vb_os_child_is_process(void);

/* Zeroed memory this process and its child both see, never freed; NULL with errno. */
void *vb_os_shared(size_t n);

/* Starts fn(arg, channel) in the child, its return value the exit status. A child
 * process reads the null device and writes to pipes that vb_os_guard_pump copies to this
 * process's output. NULL with errno. */
struct vb_child *vb_os_child_start(int (*fn)(void *arg, int channel), void *arg);

/* Reads up to n bytes the child sent, waiting at most ms milliseconds: the count read,
 * 0 when the child closed its end, or -1 with errno (EAGAIN: nothing yet). */
ssize_t vb_os_child_read(struct vb_child *w, void *buf, size_t n, unsigned ms);

/* In the child: whether the process that started it is gone (SIGKILL). */
bool vb_os_child_orphaned(void);

/* Passes signal signo on to the child (a stop, a wake-up), continuing it if stopped. */
void vb_os_child_signal(struct vb_child *w, int signo);

/* Interrupts the call the child is blocked in. */
void vb_os_child_wake(struct vb_child *w);

/* Waits at most ms for the child to end: true when it has, with its exit status and the
 * signal that killed it (else 0). */
bool vb_os_child_wait(struct vb_child *w, unsigned ms, int *status, int *signo);

/* Whether the child was stopped (SIGSTOP, ^Z) when vb_os_child_wait last looked. */
bool vb_os_child_stopped(const struct vb_child *w);

/* Gives up on a child: kills it where possible, never waits for it. */
void vb_os_child_abandon(struct vb_child *w);

/* Closes this side of the channel and frees w (the child itself is not waited for). */
void vb_os_child_free(struct vb_child *w);

/* Waits at most ms for the child's output, its channel, or this process's output to
 * take what is held, and moves some output on; true when any moved. Never blocks on the
 * user's descriptors. With drop (a stop is pending and the reader took nothing since),
 * what is held and all that follows is dropped so that the child can end; so is what
 * cannot be written (a reader gone). */
bool vb_os_guard_pump(struct vb_child *w, unsigned ms, bool drop);

/* Whether output of the child waits for this process's standard output or error. */
bool vb_os_guard_pending(const struct vb_child *w);

/* The errno of the first failed write of vb_os_guard_pump to standard output (*out) and
 * error (*err), else 0. */
void vb_os_guard_lost(const struct vb_child *w, int *out, int *err);

/* ---- output files ------------------------------------------------------------------ */

/* Opens path to append, creating it (0666 less the umask) if needed. Only a regular file
 * with one name, not a link, decided before anything is opened for writing (that would
 * wake a FIFO's reader or act on a device); never blocks. The descriptor, or -1 with the
 * reason in why; *created: this open created it (always false on Windows). */
int vb_os_append_open(const char *path, bool *created, char *why, size_t n);

/* Takes vbench's locks on the target fd while it stays open, in this process and any it
 * forks: an exclusive whole-file OFD lock (else POSIX) and flock, so that a second
 * vbench or QEMU (which locks its disks and images) and vbench refuse each other. 0; 1 when another holds a lock; -1
 * when none can be taken (why says which). */
int vb_os_hold(int fd, char *why, size_t n);

/* Whether the output other (as vb_os_io.fstat describes it) and fd (the target, its
 * directory, another output) are one storage: one file, one disk or part of it, a file
 * on the other's disk, by every name the system gives them (Linux: loop backings,
 * overlay layers, btrfs subvolumes). 1 (why says how), 0, or -1 (why says why). */
int vb_os_same_storage(int fd, const struct vb_fileinfo *other, char *why, size_t n);

/* An exclusive lock on the whole file fd, waiting at most ms; 0, or -1 with errno
 * (ETIMEDOUT). */
int vb_os_lock(int fd, unsigned ms);
void vb_os_unlock(int fd);

/* Cuts fd to len bytes (to take back a short write). */
int vb_os_truncate_to(int fd, uint64_t len);

/* Reads up to n bytes at offset of fd; the count, or -1 with errno. */
ssize_t vb_os_pread(int fd, void *buf, size_t n, uint64_t offset);

/* Creates a new file "PREFIX-XXXXXXXX.tmp" in dirfd, exclusively, not following links,
 * mode 0666 less the umask, its name into name; the descriptor, or -1 with errno. */
int vb_os_create_temp(int dirfd, const char *prefix, char *name, size_t n);

/* Opens the regular file name in dirfd for reading, without blocking; -1 with errno
 * (ELOOP for a link, EINVAL for another kind of file). */
int vb_os_open_read(int dirfd, const char *name);

/* Renames from to to, both in dirfd, replacing to (which is not followed if a link). */
int vb_os_rename(int dirfd, const char *from, const char *to);

#endif

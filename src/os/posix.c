/* What every POSIX system shares: the ops table, the clock, signals, the session's child
 * and output files. What differs by family is vb_os_fam_* (linux.c, bsd.c, macos.c). */
#include "os/os_internal.h"

#if VB_OS_POSIX

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__has_include)
#if __has_include(<sys/file.h>)
#include <sys/file.h>       /* flock */
#endif
#endif
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/resource.h>   /* getrlimit */
#include <sys/utsname.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

/* fork, waitpid and MAP_SHARED | MAP_ANONYMOUS memory: POSIX.1-2008, and the BSD
 * sysroots' sys/mman.h and sys/wait.h, which all name MAP_ANONYMOUS. */
#include <sys/mman.h>
#include <sys/wait.h>

bool vb_os_path_split(const char *path, char *dir, size_t dn, char *base, size_t bn)
{
	return vb_os_path_split_at(path, "/", dir, dn, base, bn);
}

int vb_os_target_name_check(const char *path, char *why, size_t n)
{
	(void)path;   /* on POSIX, what a name is is known only by looking at it */
	if (n > 0)
		why[0] = '\0';
	return 0;
}

void *vb_os_aligned_alloc(size_t align, size_t n)
{
	void *p = NULL;
	int rc = posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, n);

	if (rc != 0) {
		errno = rc;
		return NULL;
	}
	return p;
}

void vb_os_aligned_free(void *p)
{
	free(p);
}

int vb_os_fileno(FILE *f)
{
	return fileno(f);
}

FILE *vb_os_stream(int fd, const char *mode)
{
	return fdopen(fd, mode);
}

const struct vb_caps *vb_os_caps(void)
{
	return &vb_os_fam_caps;
}

uint64_t vb_os_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void vb_os_sleep_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

void vb_os_args(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;   /* POSIX hands main() the bytes as they are */
}

unsigned vb_os_std_fds(void)
{
	unsigned closed = 0;

	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		closed |= 1u << fd;
		/* open() returns the lowest free descriptor, which is fd itself. */
		int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (got >= 0 && got != fd)
			close(got);
	}
	return closed;
}

bool vb_os_isatty(int fd)
{
	return isatty(fd) == 1;
}

/* /dev/urandom, opened once and held: a run must not need a descriptor (ulimit -n). */
static int urandom_fd = -1, urandom_errno;
static pthread_once_t urandom_once = PTHREAD_ONCE_INIT;

static void urandom_open(void)
{
	urandom_fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	urandom_errno = errno;
}

const char *vb_os_randomness(void)
{
	return "/dev/urandom";
}

int vb_os_urandom(void *buf, size_t n)
{
	unsigned char *p = buf;

	pthread_once(&urandom_once, urandom_open);
	if (urandom_fd < 0) {
		errno = urandom_errno;
		return -1;
	}
	while (n > 0) {
		ssize_t got = read(urandom_fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			errno = got < 0 ? errno : EIO;
			return -1;
		}
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

int vb_os_write_all(int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The host, system and kernel come from uname, the rest from the family. */
void vb_os_detect(struct vb_env *e, int fd, const char *path)
{
	struct utsname u;

	vb_os_env_reset(e);
	if (uname(&u) == 0) {
		VB_OS_SHOW(e->host, u.nodename);
		VB_OS_SHOW(e->os, u.sysname);
		VB_OS_SHOW(e->kernel, u.release);
	}
	e->ram_bytes = vb_os_fam_ram_bytes();
	vb_os_fam_detect(e, fd, path);
}

/* ---- the ops table ----------------------------------------------------------------- */

static int px_open_dir(void *ctx, const char *path, bool nofollow)
{
	(void)ctx;
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
}

static int px_openat(void *ctx, int dirfd, const char *name, const struct vb_open_req *req)
{
	int flags = 0;

	(void)ctx;
	if (vb_os_fam_open_flags(req, &flags) != 0)
		return -1;
	flags |= (req->read_only ? O_RDONLY : O_WRONLY) | O_CLOEXEC;
	int fd;
	if (req->kind == VB_OPEN_ANON)
		fd = openat(dirfd, ".", flags, 0600);
	else if (req->kind == VB_OPEN_CREATE)
		fd = openat(dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	else {
		/* A name swapped for a FIFO must not wait for a reader: the caller's identity
		 * check refuses it after. */
		fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK);
		int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
		if (fl != -1)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	if (fd >= 0 && vb_os_fam_after_open(fd, req) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int px_statat(void *ctx, int dirfd, const char *name, struct vb_fileinfo *fi)
{
	struct stat st;

	(void)ctx;
	memset(fi, 0, sizeof *fi);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			return -1;
		fi->type = VB_FT_MISSING;
		return 0;
	}
	vb_os_fileinfo(&st, fi);
	return 0;
}

static int px_fstat(void *ctx, int fd, struct vb_fileinfo *fi)
{
	struct stat st;

	(void)ctx;
	if (fstat(fd, &st) != 0)
		return -1;
	vb_os_fileinfo(&st, fi);
	return 0;
}

static int px_unlinkat(void *ctx, int dirfd, const char *name)
{
	(void)ctx;
	return unlinkat(dirfd, name, 0);
}

static ssize_t px_pwrite(void *ctx, int fd, const void *buf, size_t n, uint64_t offset)
{
	(void)ctx;
	return pwrite(fd, buf, n, (off_t)offset);
}

static int px_sync(void *ctx, int fd, enum vb_sync_call call)
{
	(void)ctx;
	return call == VB_CALL_NONE ? 0 : vb_os_fam_sync(fd, call);
}

static int px_truncate(void *ctx, int fd)
{
	(void)ctx;
	return ftruncate(fd, 0);
}

static int px_dup(void *ctx, int fd)
{
	(void)ctx;
	return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

static int px_close(void *ctx, int fd)
{
	(void)ctx;
	return close(fd);
}

static int px_disk(void *ctx, int fd, struct vb_disk *d)
{
	(void)ctx;
	memset(d, 0, sizeof *d);
	return vb_os_fam_disk(fd, d);
}

static uint32_t px_logical_block(void *ctx, int fd)
{
	(void)ctx;
	uint32_t v = vb_os_fam_logical_block(fd);
	return v ? v : 512;
}

static int px_in_use(void *ctx, int fd, const struct vb_fileinfo *fi, char *holder, size_t n)
{
	(void)ctx;
	return vb_os_fam_in_use(fd, fi, holder, n);
}

/* The sinks are recognised by the device they stand for, whatever their name. */
static bool px_is_sink(void *ctx, const struct vb_fileinfo *fi)
{
	static const char *const sinks[] = {"/dev/null", "/dev/zero", "/dev/full"};
	struct stat st;

	(void)ctx;
	if (fi->type != VB_FT_CHR)
		return false;
	for (size_t i = 0; i < sizeof sinks / sizeof sinks[0]; i++)
		if (stat(sinks[i], &st) == 0 && S_ISCHR(st.st_mode) &&
		    (uint64_t)st.st_rdev == fi->rdev)
			return true;
	return false;
}

static uint64_t px_now(void *ctx)
{
	(void)ctx;
	return vb_os_now_ns();
}

int vb_os_free_bytes(int dirfd, uint64_t *bytes)
{
	struct statvfs sv;

	/* Without a size (Linux ramfs: libfs's simple_statfs has none), nothing is refused. */
	if (fstatvfs(dirfd, &sv) != 0 || sv.f_frsize == 0 || sv.f_blocks == 0)
		return -1;
	/* The reserve counts only for a process that may use it, less what is withheld. */
	uint64_t blocks = sv.f_bavail, kept;
	if (sv.f_bfree > sv.f_bavail && vb_os_fam_reserve_usable(dirfd, &kept) &&
	    sv.f_bfree - sv.f_bavail > kept)
		blocks = sv.f_bfree - kept;
	*bytes = blocks > UINT64_MAX / sv.f_frsize ? UINT64_MAX : blocks * sv.f_frsize;
	return 0;
}

int vb_os_file_size_limit(uint64_t *bytes)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	*bytes = (uint64_t)rl.rlim_cur;
	return 0;
}

const struct vb_io_ops vb_os_io = {
	px_open_dir, px_openat, px_statat, px_fstat, px_unlinkat, px_pwrite, px_sync,
	px_truncate, px_dup, px_close, px_disk, px_logical_block, px_in_use, px_is_sink,
	px_now, NULL /* grow: realloc */, NULL,
};

/* ---- signals ----------------------------------------------------------------------- */

static struct vb_sigflags *flags;
static atomic_int *resumed;

/* The first stop signal is kept, and replaces --timeout's flag, so that vbench still
 * ends by that signal. */
static void on_stop(int signo)
{
	int cur = atomic_load(&flags->stop);

	while (cur <= 0 && !atomic_compare_exchange_weak(&flags->stop, &cur, signo))
		;
}

/* A fault signal stops vbench only when sent; a real fault gets the default action back
 * and happens again when the handler returns. */
static void on_fault(int signo, siginfo_t *info, void *uc)
{
	(void)uc;
	if (info != NULL && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) {
		on_stop(signo);
		return;
	}
	signal(signo, SIG_DFL);
}

static void on_status(int signo)
{
	(void)signo;
	atomic_store(&flags->status, 1);
}

static void on_resume(int signo)
{
	(void)signo;
	if (resumed != NULL)
		atomic_store(resumed, 1);
}

static void on_wake(int signo)
{
	(void)signo;   /* only interrupts the call in progress */
}

/* Whether handlers installed from now on restart calls (restart_calls). */
static bool restarting;

static void install(int signo, void (*fn)(int), bool keep_ignored)
{
	struct sigaction sa, old;

	if (keep_ignored && sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART but in the session: a blocked write returns EINTR */
	sa.sa_flags = restarting && signo != VB_WAKE_SIGNAL ? SA_RESTART : 0;
	sigaction(signo, &sa, NULL);
}

static void install_fault(int signo)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO;
	sigaction(signo, &sa, NULL);
}

/* Signals whose default action ends the process and that another process may send. */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR2, SIGXCPU, SIGVTALRM,
	SIGPROF,
#if defined(SIGPOLL) && VB_OS_LINUX
	SIGPOLL,       /* terminates on Linux; SIGIO is ignored by default on the BSDs */
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGLOST
	SIGLOST,
#endif
#ifdef SIGEMT
	SIGEMT,
#endif
};

/* Signals a fault raises; only when sent by kill() do they ask to stop. */
static const int fault_signals[] = {
	SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS,
};

void vb_os_signals_install(struct vb_sigflags *f)
{
	flags = f;
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		install(stop_signals[i], on_stop, true);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		install(s, on_stop, true);
#endif
	for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
		install_fault(fault_signals[i]);
	install(SIGUSR1, on_status, true);
#ifdef SIGINFO
	install(SIGINFO, on_status, true);
#endif
	install(VB_WAKE_SIGNAL, on_wake, false);
	signal(SIGXFSZ, SIG_IGN);   /* a file-size limit is then the write's EFBIG */
}

/* In the session's child, calls the stop, status and resume signals interrupt restart:
 * a write's EINTR would lose output to the guard's pipe. The handlers are installed
 * again, with SA_RESTART; the guard interrupts its stuck calls with VB_WAKE_SIGNAL,
 * which always interrupts. Ignored signals stay ignored, as when first installed. */
static void restart_calls(void)
{
	struct sigaction sa;

	restarting = true;
	if (flags != NULL)
		vb_os_signals_install(flags);
	if (sigaction(SIGCONT, NULL, &sa) == 0 && sa.sa_handler == on_resume)
		install(SIGCONT, on_resume, false);
}

void vb_os_on_resume(atomic_int *flag)
{
	resumed = flag;
	install(SIGCONT, on_resume, false);
}

_Noreturn void vb_os_die(int signo)
{
	sigset_t set;

	fflush(stdout);
	fflush(stderr);
	signal(signo, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, signo);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(signo);
	_exit(128 + signo);
}

/* ---- threads ----------------------------------------------------------------------- */

int vb_os_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, bool wakeable)
{
	sigset_t all, old;
	pthread_attr_t attr;

	sigfillset(&all);
	if (wakeable)
		sigdelset(&all, VB_WAKE_SIGNAL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, VB_THREAD_STACK_BYTES);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(t, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc;
}

vb_os_thread_t vb_os_thread_self(void)
{
	/* pthread_t is an integer or a pointer; it travels in the pointer-sized handle. */
	pthread_t t = pthread_self();
	vb_os_thread_t h = NULL;
	memcpy(&h, &t, sizeof t < sizeof h ? sizeof t : sizeof h);
	return h;
}

void vb_os_thread_wake(vb_os_thread_t h)
{
	pthread_t t;
	memset(&t, 0, sizeof t);
	memcpy(&t, &h, sizeof t < sizeof h ? sizeof t : sizeof h);
	pthread_kill(t, VB_WAKE_SIGNAL);
}

/* ---- the session's child ---------------------------------------------------------- */

bool vb_os_child_is_process(void)
{
	return true;
}

/* One of a guarded session's output pipes and what of it could not be written yet. */
struct relay {
	int from, to;    /* the pipe's read end (-1 once closed), and 1 or 2 */
	int lost;        /* why what it carries can no longer be written, or 0 */
	size_t off, len; /* buf[off..len) waits for `to` to take it */
	char buf[65536];
};

struct vb_child {
	int chan;
	bool ended, stopped;
	int status, signo;
	pid_t pid;
	struct relay rel[2];   /* a guarded session's standard output and error */
};

/* poll, not select: the channel may be above FD_SETSIZE. */
ssize_t vb_os_child_read(struct vb_child *w, void *buf, size_t n, unsigned ms)
{
	struct pollfd pfd = {w->chan, POLLIN, 0};

	if (w->chan < 0)
		return 0;
	int rc = poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms);
	if (rc == 0) {
		errno = EAGAIN;
		return -1;
	}
	if (rc < 0)
		return -1;
	ssize_t got = read(w->chan, buf, n);
	if (got == 0) {
		close(w->chan);   /* the child's end is closed: nothing more will come */
		w->chan = -1;
	}
	return got;
}

void vb_os_child_free(struct vb_child *w)
{
	if (w == NULL)
		return;
	if (w->chan >= 0)
		close(w->chan);
	for (int i = 0; i < 2; i++)
		if (w->rel[i].from >= 0)
			close(w->rel[i].from);
	free(w);
}

/* The guard's pid, as the session's child saw it when it started; 0 elsewhere. */
static pid_t guard_pid;

bool vb_os_child_orphaned(void)
{
	return guard_pid != 0 && getppid() != guard_pid;
}

/* Shared with the forked child on the BSDs too: "Shared memory is also shared with
 * children" (FreeBSD vm_mmap_object, DragonFly vm_mmap, sys/vm/vm_mmap.c; NetBSD uvm_mmap
 * maps MAP_SHARED with UVM_INH_SHARE). */
void *vb_os_shared(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void vb_os_child_signal(struct vb_child *w, int signo)
{
	if (w->ended)
		return;
	kill(w->pid, signo);
	/* A stopped child acts on it only once continued (as a shell continues a stopped job
	 * it signals). */
	if (w->stopped)
		kill(w->pid, SIGCONT);
}

void vb_os_child_wake(struct vb_child *w)
{
	vb_os_child_signal(w, VB_WAKE_SIGNAL);
}

bool vb_os_child_wait(struct vb_child *w, unsigned ms, int *status, int *signo)
{
	uint64_t until = vb_os_now_ns() + (uint64_t)ms * 1000000ULL;

	while (!w->ended) {
		int st;
		/* A stop and a continue are each reported once (FreeBSD kern_wait6 in
		 * sys/kern/kern_exit.c: P_WAITED, P_CONTINUED; Linux wait_task_stopped and
		 * wait_task_continued in kernel/exit.c). */
		pid_t r = waitpid(w->pid, &st, WNOHANG | WUNTRACED | WCONTINUED);
		if (r == w->pid && (WIFSTOPPED(st) || WIFCONTINUED(st))) {
			w->stopped = WIFSTOPPED(st);
			continue;
		}
		if (r == w->pid) {
			w->ended = true;
			w->status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
			w->signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
			break;
		}
		if (r < 0 && errno != EINTR) {
			w->ended = true;   /* not our child any more: nothing to wait for */
			break;
		}
		if (vb_os_now_ns() >= until)
			return false;
		vb_os_sleep_ms(5);
	}
	*status = w->status;
	*signo = w->signo;
	return true;
}

bool vb_os_child_stopped(const struct vb_child *w)
{
	return w->stopped;
}

void vb_os_child_abandon(struct vb_child *w)
{
	if (!w->ended)
		kill(w->pid, SIGKILL);
}

/* Closes the descriptors of the pipes in p, n of them, that are open. */
static void close_all(const int *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] >= 0)
			close(p[i]);
}

struct vb_child *vb_os_child_start(int (*fn)(void *arg, int channel), void *arg)
{
	struct vb_child *w = calloc(1, sizeof *w);
	/* standard output, standard error (none when it is output's), the channel: read and
	 * write ends */
	int p[6] = {-1, -1, -1, -1, -1, -1};
	struct stat so, se;

	if (w == NULL)
		return NULL;
	/* Output and error that are one file (2>&1) share a pipe, which keeps their order. */
	bool one = fstat(1, &so) == 0 && fstat(2, &se) == 0 && so.st_dev == se.st_dev &&
		   so.st_ino == se.st_ino;
	if (pipe(p) != 0 || (!one && pipe(p + 2) != 0) || pipe(p + 4) != 0)
		goto fail;
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	w->pid = fork();
	if (w->pid < 0)
		goto fail;
	if (w->pid == 0) {
		free(w);   /* the parent's handle, nothing of the child's */
		guard_pid = parent;
		restart_calls();
		/* Descriptors 0-2 are open (vb_os_std_fds), so the pipes are above them. */
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
		dup2(p[1], 1);
		dup2(one ? p[1] : p[3], 2);
		int chan = p[5];
		p[5] = -1;
		close_all(p, 6);
		fcntl(chan, F_SETFD, FD_CLOEXEC);
		int rc = fn(arg, chan);
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	close(p[1]);
	close(p[5]);
	if (!one)
		close(p[3]);
	w->chan = p[4];
	fcntl(w->chan, F_SETFD, FD_CLOEXEC);
	w->rel[0].from = p[0];
	w->rel[1].from = p[2];
	for (int i = 0; i < 2; i++) {
		int fd = w->rel[i].from;
		w->rel[i].to = i + 1;
		if (fd < 0)
			continue;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	return w;
fail:;
	int e = errno;
	close_all(p, 6);
	free(w);
	errno = e;
	return NULL;
}

/* Writes what r holds without blocking: the user's output is left blocking, so at most
 * PIPE_BUF, which a pipe that polled writable takes whole. */
static bool relay_write(struct relay *r)
{
	size_t n = r->len - r->off;

	if (n > PIPE_BUF)
		n = PIPE_BUF;
	ssize_t k = write(r->to, r->buf + r->off, n);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	if (k <= 0) {
		r->lost = errno != 0 && k < 0 ? errno : EIO;
		r->off = r->len = 0;
		return false;
	}
	r->off += (size_t)k;
	if (r->off == r->len)
		r->off = r->len = 0;
	return true;
}

/* Reads the pipe into r; what can no longer be written is dropped, so that the session
 * never blocks on a full pipe. */
static bool relay_read(struct relay *r)
{
	ssize_t n = read(r->from, r->buf, sizeof r->buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return false;
	if (n <= 0) {
		close(r->from);
		r->from = -1;
		return false;
	}
	if (r->lost == 0)
		r->len = (size_t)n;
	return true;
}

bool vb_os_guard_pump(struct vb_child *w, unsigned ms, bool drop)
{
	struct pollfd pfd[3];
	nfds_t n = 0;
	int wi = -1;

	for (int i = 0; i < 2 && wi < 0; i++)
		if (w->rel[i].len > w->rel[i].off)
			wi = i;
	/* In the order written: held output before error's, and before more is read. */
	if (wi >= 0) {
		pfd[n++] = (struct pollfd){w->rel[wi].to, POLLOUT, 0};
	} else {
		for (int i = 0; i < 2; i++)
			if (w->rel[i].from >= 0)
				pfd[n++] = (struct pollfd){w->rel[i].from, POLLIN, 0};
	}
	/* (a run the channel brings ends the wait, to be read by vb_os_child_read) */
	if (w->chan >= 0)
		pfd[n++] = (struct pollfd){w->chan, POLLIN, 0};
	if (n == 0) {
		/* (the pipes' end: the session is exiting, and is waited for soon) */
		vb_os_sleep_ms(ms < 5 ? ms : 5);
		return false;
	}
	if (poll(pfd, n, ms > INT_MAX ? INT_MAX : (int)ms) < 0)
		return false;
	if (wi >= 0 && pfd[0].revents == 0) {
		if (!drop)
			return false;
		/* not taken, a stop pending: dropped, and so is all that follows there */
		w->rel[wi].off = w->rel[wi].len = 0;
		w->rel[wi].lost = EAGAIN;
		return true;
	}
	if (wi >= 0)
		return relay_write(&w->rel[wi]);
	/* Standard output first: the session flushes it before it writes to stderr. */
	bool moved = false;
	for (nfds_t i = 0; i < n && !moved; i++)
		if (pfd[i].fd != w->chan && pfd[i].revents != 0)
			moved = relay_read(&w->rel[pfd[i].fd == w->rel[0].from ? 0 : 1]);
	return moved;
}

bool vb_os_guard_pending(const struct vb_child *w)
{
	return w->rel[0].len > w->rel[0].off || w->rel[1].len > w->rel[1].off;
}

void vb_os_guard_lost(const struct vb_child *w, int *out, int *err)
{
	*out = w->rel[0].lost;
	*err = w->rel[1].lost;
}

/* ---- output files ------------------------------------------------------------------ */

/* What a file that is not a regular file is, for a message. */
static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISDIR(m))
		return "a directory";
	return "not a regular file";
}

int vb_os_append_open(const char *path, bool *created, char *why, size_t n)
{
	const int how = O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC;
	struct stat st;
	int fd = VB_REG_NONE;

	*created = false;

	/* A name that comes and goes between the looks is looked at again, a few times. */
	for (int tries = 0; tries < 4 && fd == VB_REG_NONE; tries++) {
		fd = vb_os_fam_open_regular(path, how, &st, why, n);
		if (fd != VB_REG_NONE)
			break;
		/* Nothing there: what is created exclusively is a new regular file. */
		fd = open(path, how | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
		if (fd >= 0 && fstat(fd, &st) != 0) {
			snprintf(why, n, "cannot examine it: %s", strerror(errno));
			close(fd);
			return -1;
		}
		if (fd < 0 && errno != EEXIST) {
			snprintf(why, n, "%s", strerror(errno));
			return -1;
		}
		if (fd < 0)
			fd = VB_REG_NONE;
		else
			*created = true;
	}
	if (fd == VB_REG_NONE)
		snprintf(why, n, "keeps changing while vbench examines it");
	else if (fd == VB_REG_OTHER && S_ISLNK(st.st_mode))
		snprintf(why, n, "is a symbolic link; vbench does not follow links to files it "
			 "writes (give the path it points to)");
	else if (fd == VB_REG_OTHER)
		snprintf(why, n, "is %s; vbench appends only to a regular file", kind_of(st.st_mode));
	else if (fd >= 0 && st.st_nlink > 1) {
		snprintf(why, n, "has %llu hard links; vbench appends only to a file with one name",
			 (unsigned long long)st.st_nlink);
		close(fd);
		fd = -1;
	}
	return fd >= 0 ? fd : -1;
}

int vb_os_hold(int fd, char *why, size_t n)
{
	struct stat st;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};   /* the whole file */

	if (fstat(fd, &st) != 0) {
		snprintf(why, n, "cannot examine it to lock it: %s", strerror(errno));
		return -1;
	}
	/* flock first: where it is emulated by a whole-file lock (NFS), the lock below has
	 * the same owner and does not conflict with it. */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK || errno == EAGAIN) {
			snprintf(why, n, "another program holds a flock lock on it");
			return 1;
		}
		snprintf(why, n, "cannot lock it (flock): %s", strerror(errno));
		return -1;
	}
#if defined(F_OFD_SETLK)
	int rc = fcntl(fd, F_OFD_SETLK, &fl);
#else
	int rc = fcntl(fd, F_SETLK, &fl);
#endif
	if (rc != 0) {
		int e = errno;
		flock(fd, LOCK_UN);
		if (e == EACCES || e == EAGAIN) {
			snprintf(why, n, "another program holds a lock on it (QEMU locks the disks "
				 "and images it uses; so does another vbench)");
			return 1;
		}
		snprintf(why, n, "cannot lock it: %s", strerror(e));
		return -1;
	}
	vb_os_held = (struct vb_os_held){true, (uint64_t)st.st_dev, (uint64_t)st.st_ino};
	return 0;
}

#if !VB_OS_LINUX
/* (Linux: linux.c.) */
int vb_os_same_storage(int fd, const struct vb_fileinfo *other, char *why, size_t n)
{
	/* Device numbers only, no partitions; character devices (sinks) are left out. */
	struct stat a;

	if (fstat(fd, &a) != 0) {
		snprintf(why, n, "cannot examine it: %s", strerror(errno));
		return -1;
	}
	bool disk = S_ISBLK(a.st_mode) || S_ISCHR(a.st_mode);
	const char *how = NULL;
	if (other->type == VB_FT_REG && S_ISREG(a.st_mode) && (uint64_t)a.st_dev == other->dev &&
	    (uint64_t)a.st_ino == other->ino)
		how = "it is the same file";
	else if (other->type == VB_FT_REG && disk && other->dev == (uint64_t)a.st_rdev)
		how = "the file lies on it";
	else if (other->type == VB_FT_BLK && S_ISBLK(a.st_mode) && other->rdev == (uint64_t)a.st_rdev)
		how = "it is the same disk";
	else if (other->type == VB_FT_BLK && (S_ISREG(a.st_mode) || S_ISDIR(a.st_mode)) &&
		 other->rdev == (uint64_t)a.st_dev)
		how = "it is the disk where the target lies";
	if (how != NULL)
		snprintf(why, n, "%s", how);
	return how != NULL;
}
#endif

int vb_os_lock(int fd, unsigned ms)
{
	uint64_t until = vb_os_now_ns() + (uint64_t)ms * 1000000ULL;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};   /* the whole file */

	for (;;) {
		if (fcntl(fd, F_SETLK, &fl) == 0)
			return 0;
		if (errno != EACCES && errno != EAGAIN && errno != EINTR)
			return -1;
		if (vb_os_now_ns() >= until) {
			errno = ETIMEDOUT;
			return -1;
		}
		vb_os_sleep_ms(10);
	}
}

void vb_os_unlock(int fd)
{
	struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET};

	fcntl(fd, F_SETLK, &fl);
}

int vb_os_truncate_to(int fd, uint64_t len)
{
	return ftruncate(fd, (off_t)len);
}

ssize_t vb_os_pread(int fd, void *buf, size_t n, uint64_t offset)
{
	return pread(fd, buf, n, (off_t)offset);
}

int vb_os_create_temp(int dirfd, const char *prefix, char *name, size_t n)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[8];

	for (int tries = 0; tries < 100; tries++) {
		if (vb_os_urandom(rnd, sizeof rnd) != 0) {
			uint64_t x = vb_os_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries;
			memcpy(rnd, &x, sizeof rnd);
		}
		char tag[9];
		for (int i = 0; i < 8; i++)
			tag[i] = digits[rnd[i] % 36];
		tag[8] = '\0';
		if (snprintf(name, n, "%s-%s.tmp", prefix, tag) >= (int)n) {
			errno = ENAMETOOLONG;
			return -1;
		}
		int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int vb_os_open_read(int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

int vb_os_rename(int dirfd, const char *from, const char *to)
{
	return renameat(dirfd, from, dirfd, to);
}

#else
typedef int vb_os_posix_unused;
#endif

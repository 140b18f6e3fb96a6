/* Windows: the POSIX thread calls of win32/pthread.h, made of what XP has. Threads are
 * the C runtime's (_beginthreadex, so msvcrt sets up its per-thread data), mutexes
 * critical sections, a condition variable a line of waiters on auto-reset events of
 * their own: a signal sets the first one's, so no wake-up is lost or goes to a later
 * waiter. Deadlines are on the system time (vb_os_deadline_in). */
#include "os/os_internal.h"

#if VB_OS_WINDOWS

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <errno.h>
#include <process.h>
#include <pthread.h>
#include <stdlib.h>

_Static_assert(sizeof(CRITICAL_SECTION) <= sizeof(((pthread_mutex_t *)0)->cs.bytes),
	       "pthread_mutex_t has room for a CRITICAL_SECTION");

struct vb_os_win_thread {
	HANDLE handle;
	void *(*fn)(void *);
	void *arg;
	void *ret;
};

struct vb_os_win_waiter {
	struct vb_os_win_waiter *next, *prev;
	HANDLE event;
	bool queued;
};

/* The thread vb_os_win_thread_create started that runs here, or NULL. */
static _Thread_local struct vb_os_win_thread *self;

static unsigned __stdcall trampoline(void *p)
{
	struct vb_os_win_thread *t = p;

	self = t;
	t->ret = t->fn(t->arg);
	return 0;
}

int vb_os_win_thread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *),
			    void *arg)
{
	struct vb_os_win_thread *t = calloc(1, sizeof *t);

	if (t == NULL)
		return ENOMEM;
	t->fn = fn;
	t->arg = arg;
	/* Started suspended: the thread may ask for its handle at once (a writer does), so
	 * the handle is stored before it runs. */
	uintptr_t h = _beginthreadex(NULL, attr != NULL ? (unsigned)attr->stack_bytes : 0,
				     trampoline, t, CREATE_SUSPENDED, NULL);
	if (h == 0) {
		int e = errno != 0 ? errno : EAGAIN;
		free(t);
		return e;
	}
	t->handle = (HANDLE)h;
	if (ResumeThread(t->handle) == (DWORD)-1) {
		/* it never ran a line of its own, so ending it strands nothing */
		TerminateThread(t->handle, 0);
		CloseHandle(t->handle);
		free(t);
		return EAGAIN;
	}
	*out = t;
	return 0;
}

int vb_os_win_thread_join(pthread_t t, void **ret)
{
	if (WaitForSingleObject(t->handle, INFINITE) != WAIT_OBJECT_0)
		return EINVAL;
	CloseHandle(t->handle);
	if (ret != NULL)
		*ret = t->ret;
	free(t);
	return 0;
}

void *vb_os_win_thread_handle(void)
{
	return self != NULL ? self->handle : NULL;
}

static CRITICAL_SECTION *cs_of(pthread_mutex_t *m)
{
	return (CRITICAL_SECTION *)(void *)m->cs.bytes;
}

int vb_os_win_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	(void)attr;
	InitializeCriticalSection(cs_of(m));
	return 0;
}

int vb_os_win_mutex_destroy(pthread_mutex_t *m)
{
	DeleteCriticalSection(cs_of(m));
	return 0;
}

int vb_os_win_mutex_lock(pthread_mutex_t *m)
{
	EnterCriticalSection(cs_of(m));
	return 0;
}

int vb_os_win_mutex_unlock(pthread_mutex_t *m)
{
	LeaveCriticalSection(cs_of(m));
	return 0;
}

int vb_os_win_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	(void)attr;
	c->head = c->tail = NULL;
	return vb_os_win_mutex_init(&c->guard, NULL);
}

int vb_os_win_cond_destroy(pthread_cond_t *c)
{
	return vb_os_win_mutex_destroy(&c->guard);
}

/* Takes w out of c's line; the guard is held. */
static void unlink_waiter(pthread_cond_t *c, struct vb_os_win_waiter *w)
{
	if (w->prev != NULL)
		w->prev->next = w->next;
	else
		c->head = w->next;
	if (w->next != NULL)
		w->next->prev = w->prev;
	else
		c->tail = w->prev;
	w->next = w->prev = NULL;
	w->queued = false;
}

/* Wakes the first waiter, or all; the event is set under the guard, which the waiter
 * takes before it closes the event. */
static int wake(pthread_cond_t *c, bool all)
{
	vb_os_win_mutex_lock(&c->guard);
	while (c->head != NULL) {
		struct vb_os_win_waiter *w = c->head;
		unlink_waiter(c, w);
		SetEvent(w->event);
		if (!all)
			break;
	}
	vb_os_win_mutex_unlock(&c->guard);
	return 0;
}

int vb_os_win_cond_signal(pthread_cond_t *c)
{
	return wake(c, false);
}

int vb_os_win_cond_broadcast(pthread_cond_t *c)
{
	return wake(c, true);
}

/* Milliseconds from now to until on the system time, rounded up; 0 once it has passed. */
static DWORD ms_until(const struct timespec *until)
{
	struct timespec now = vb_os_deadline_in(0);
	int64_t ns = ((int64_t)until->tv_sec - (int64_t)now.tv_sec) * 1000000000LL +
		     (int64_t)until->tv_nsec - (int64_t)now.tv_nsec;

	if (ns <= 0)
		return 0;
	int64_t ms = (ns + 999999) / 1000000;
	return ms >= (int64_t)INFINITE ? INFINITE - 1 : (DWORD)ms;
}

int vb_os_win_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *until)
{
	struct vb_os_win_waiter me = {NULL, NULL, CreateEventW(NULL, FALSE, FALSE, NULL), false};
	int rc = 0;

	if (me.event == NULL) {
		/* No event: a nap, which callers take for a spurious wake-up. */
		vb_os_win_mutex_unlock(m);
		Sleep(1);
		vb_os_win_mutex_lock(m);
		return 0;
	}
	vb_os_win_mutex_lock(&c->guard);
	me.prev = c->tail;
	if (c->tail != NULL)
		c->tail->next = &me;
	else
		c->head = &me;
	c->tail = &me;
	me.queued = true;
	vb_os_win_mutex_unlock(&c->guard);
	vb_os_win_mutex_unlock(m);
	WaitForSingleObject(me.event, ms_until(until));
	vb_os_win_mutex_lock(&c->guard);
	if (me.queued) {
		/* Not signalled: the time ran out. */
		unlink_waiter(c, &me);
		rc = ETIMEDOUT;
	}
	vb_os_win_mutex_unlock(&c->guard);
	CloseHandle(me.event);
	vb_os_win_mutex_lock(m);
	return rc;
}

/* The system time as a Unix time: FILETIME counts 100 ns from 1601-01-01. */
struct timespec vb_os_deadline_in(uint64_t ns)
{
	FILETIME ft;
	struct timespec ts;

	GetSystemTimeAsFileTime(&ft);
	uint64_t t = (((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime) -
		     116444736000000000ULL;
	uint64_t nsec = (t % 10000000ULL) * 100ULL + ns % 1000000000ULL;
	ts.tv_sec = (time_t)(t / 10000000ULL + ns / 1000000000ULL + nsec / 1000000000ULL);
	ts.tv_nsec = (long)(nsec % 1000000000ULL);
	return ts;
}

#else
typedef int vb_os_win_threads_unused;
#endif

/* The Win32 threads behind vbench's pthread calls (src/os/win32/pthread.h,
 * src/os/win_threads.c), under Wine: a mutex excludes, a signal or a broadcast is never
 * lost (the waits below are long: a lost wake-up would show as a timeout), a wait with
 * nobody to wake it ends at its deadline and not before, join hands back the thread's
 * result, and a started thread knows its own handle. Prints "ok"/"FAIL" lines; the
 * exit status is the number of failures. */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "os/vb_os.h"

#include <windows.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok  " : "FAIL", what);
	failures += !ok;
}

/* ---- a mutex excludes ---- */

enum { ADDERS = 4, ADDS = 200000 };
static pthread_mutex_t count_lock;
static volatile long count;

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ADDS; i++) {
		pthread_mutex_lock(&count_lock);
		count = count + 1;
		pthread_mutex_unlock(&count_lock);
	}
	return NULL;
}

/* ---- a queue of one slot: every item handed over, no wake-up lost ---- */

enum { ITEMS = 20000 };
static pthread_mutex_t q_lock;
static pthread_cond_t q_full, q_empty;
static int slot, slot_used, timeouts;

static int wait_long(pthread_cond_t *c)
{
	struct timespec until = vb_os_deadline_in(60ULL * 1000000000ULL);
	return pthread_cond_timedwait(c, &q_lock, &until);
}

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&q_lock);
		while (slot_used)
			timeouts += wait_long(&q_empty) == ETIMEDOUT;
		slot = i;
		slot_used = 1;
		pthread_cond_signal(&q_full);
		pthread_mutex_unlock(&q_lock);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	long sum = 0;

	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&q_lock);
		while (!slot_used)
			timeouts += wait_long(&q_full) == ETIMEDOUT;
		sum += slot;
		slot_used = 0;
		pthread_mutex_unlock(&q_lock);
		/* signalled outside the lock, as POSIX allows */
		pthread_cond_signal(&q_empty);
	}
	return (void *)(intptr_t)(sum == (long)ITEMS * (ITEMS + 1) / 2);
}

/* ---- a broadcast wakes every waiter ---- */

enum { WAITERS = 8 };
static pthread_cond_t gate;
static int open_gate, waiting, woke;

static void *gate_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&q_lock);
	waiting++;
	while (!open_gate)
		timeouts += wait_long(&gate) == ETIMEDOUT;
	woke++;
	pthread_mutex_unlock(&q_lock);
	return NULL;
}

static void *own_handle(void *arg)
{
	(void)arg;
	return vb_os_win_thread_handle();
}

/* ---- the worker: nothing kept when it cannot start, its handle let go when freed ---- */

static volatile LONG go, worker_tid;

static int idle(void *arg, int channel)
{
	(void)arg;
	(void)channel;
	InterlockedExchange(&worker_tid, (LONG)GetCurrentThreadId());
	while (!go)
		Sleep(1);
	return 0;
}

typedef DWORD(WINAPI *thread_id_fn)(HANDLE);

static void worker_checks(void)
{
	int fds[16384], k = 0;

	/* One descriptor left: the channel's read end takes it and the write end finds none. */
	while (k < 16384 && (fds[k] = _open("NUL", _O_RDONLY)) >= 0)
		k++;
	if (k > 0)
		_close(fds[--k]);
	check(vb_os_child_start(idle, NULL) == NULL, "the session thread without descriptors fails");
	int fd = _open("NUL", _O_RDONLY);
	check(fd >= 0, "and keeps none of its channel's");
	if (fd >= 0)
		_close(fd);
	while (k > 0)
		_close(fds[--k]);

	/* Freed while it runs, a worker's thread handle is closed all the same: no handle of
	 * the process names its thread (GetThreadId, Vista's, looked up: not an import). */
	thread_id_fn tid = (thread_id_fn)(void (*)(void))GetProcAddress(
		GetModuleHandleW(L"kernel32.dll"), "GetThreadId");
	struct vb_child *w = vb_os_child_start(idle, NULL);
	check(w != NULL, "the session thread starts");
	while (worker_tid == 0)
		Sleep(1);
	vb_os_child_free(w);
	int kept = 0;
	for (uintptr_t h = 4; tid != NULL && h < 65536; h += 4)
		kept += tid((HANDLE)h) == (DWORD)worker_tid;
	check(tid != NULL && kept == 0, "the session thread freed before it ends leaves no handle to it");
	InterlockedExchange(&go, 1);
}

int main(void)
{
	pthread_t t[WAITERS];
	pthread_attr_t attr;
	void *ret = NULL;

	pthread_mutex_init(&count_lock, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256u << 10);
	for (int i = 0; i < ADDERS; i++)
		pthread_create(&t[i], &attr, adder, NULL);
	for (int i = 0; i < ADDERS; i++)
		pthread_join(t[i], NULL);
	pthread_attr_destroy(&attr);
	check(count == (long)ADDERS * ADDS, "a mutex excludes: every increment counted");
	pthread_mutex_destroy(&count_lock);

	pthread_mutex_init(&q_lock, NULL);
	pthread_cond_init(&q_full, NULL);
	pthread_cond_init(&q_empty, NULL);
	pthread_create(&t[0], NULL, producer, NULL);
	pthread_create(&t[1], NULL, consumer, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], &ret);
	check(ret != NULL, "a one-slot queue hands over every item once, in order of sum");
	check(timeouts == 0, "no signal is lost (no 60 s wait timed out)");

	pthread_cond_init(&gate, NULL);
	for (int i = 0; i < WAITERS; i++)
		pthread_create(&t[i], NULL, gate_waiter, NULL);
	for (;;) {
		pthread_mutex_lock(&q_lock);
		int all = waiting == WAITERS;
		pthread_mutex_unlock(&q_lock);
		if (all)
			break;
		vb_os_sleep_ms(1);
	}
	pthread_mutex_lock(&q_lock);
	open_gate = 1;
	pthread_cond_broadcast(&gate);
	pthread_mutex_unlock(&q_lock);
	for (int i = 0; i < WAITERS; i++)
		pthread_join(t[i], NULL);
	check(woke == WAITERS && timeouts == 0, "a broadcast wakes every waiter");

	/* Nobody signals: the wait ends at its deadline, not before. */
	struct timespec until = vb_os_deadline_in(200000000ULL);
	pthread_mutex_lock(&q_lock);
	int rc = pthread_cond_timedwait(&gate, &q_lock, &until);
	pthread_mutex_unlock(&q_lock);
	struct timespec now = vb_os_deadline_in(0);
	check(rc == ETIMEDOUT, "an unsignalled wait times out");
	check(now.tv_sec > until.tv_sec ||
	      (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec),
	      "and not before its deadline");
	/* A deadline already past returns at once, timed out. */
	until = vb_os_deadline_in(0);
	pthread_mutex_lock(&q_lock);
	rc = pthread_cond_timedwait(&gate, &q_lock, &until);
	pthread_mutex_unlock(&q_lock);
	check(rc == ETIMEDOUT, "a deadline in the past times out");

	/* Its first act, before its creator returns: a handle stored after the start
	 * would be missing now and then. */
	int unknown = 0;
	for (int i = 0; i < 64; i++) {
		pthread_create(&t[0], NULL, own_handle, NULL);
		pthread_join(t[0], &ret);
		unknown += ret == NULL;
	}
	check(unknown == 0, "a started thread knows its handle from its first line");
	check(vb_os_win_thread_handle() == NULL, "the main thread, not started so, has none");
	pthread_cond_destroy(&gate);
	pthread_cond_destroy(&q_full);
	pthread_cond_destroy(&q_empty);
	pthread_mutex_destroy(&q_lock);
	worker_checks();
	printf("threads: %d failed\n", failures);
	return failures;
}

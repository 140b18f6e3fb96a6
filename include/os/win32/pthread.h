#ifndef VB_WIN32_PTHREAD_H
#define VB_WIN32_PTHREAD_H

/* The POSIX threads vbench calls, for Windows builds only (tests/windows/build.sh puts
 * this directory first on the include path), made of what XP has in win_threads.c:
 * MinGW-w64's winpthreads imports Vista's functions even linked statically. */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A thread: what vb_os_win_thread_create allocated; freed by pthread_join. */
typedef struct vb_os_win_thread *pthread_t;

typedef struct {
	size_t stack_bytes;
} pthread_attr_t;

/* Room for a CRITICAL_SECTION (24 bytes on x86, 40 on x64) without windows.h; the size
 * is checked in win_threads.c. */
typedef struct {
	union {
		void *align;
		unsigned char bytes[64];
	} cs;
} pthread_mutex_t;

/* The waiters in line, each with its own event, under a guard of their own (callers may
 * signal without holding the mutex). */
struct vb_os_win_waiter;
typedef struct {
	pthread_mutex_t guard;
	struct vb_os_win_waiter *head, *tail;
} pthread_cond_t;

typedef int pthread_mutexattr_t;
typedef int pthread_condattr_t;

int vb_os_win_thread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
			    void *arg);
int vb_os_win_thread_join(pthread_t t, void **ret);
int vb_os_win_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int vb_os_win_mutex_destroy(pthread_mutex_t *m);
int vb_os_win_mutex_lock(pthread_mutex_t *m);
int vb_os_win_mutex_unlock(pthread_mutex_t *m);
int vb_os_win_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int vb_os_win_cond_destroy(pthread_cond_t *c);
int vb_os_win_cond_signal(pthread_cond_t *c);
int vb_os_win_cond_broadcast(pthread_cond_t *c);
int vb_os_win_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *until);

/* The HANDLE of the calling thread if vb_os_win_thread_create started it (valid until
 * joined), else NULL. */
void *vb_os_win_thread_handle(void);

static inline int vb_os_win_attr_init(pthread_attr_t *a)
{
	a->stack_bytes = 0;
	return 0;
}

static inline int vb_os_win_attr_setstacksize(pthread_attr_t *a, size_t n)
{
	a->stack_bytes = n;
	return 0;
}

static inline int vb_os_win_attr_destroy(pthread_attr_t *a)
{
	(void)a;
	return 0;
}

#define pthread_create vb_os_win_thread_create
#define pthread_join vb_os_win_thread_join
#define pthread_attr_init vb_os_win_attr_init
#define pthread_attr_setstacksize vb_os_win_attr_setstacksize
#define pthread_attr_destroy vb_os_win_attr_destroy
#define pthread_mutex_init vb_os_win_mutex_init
#define pthread_mutex_destroy vb_os_win_mutex_destroy
#define pthread_mutex_lock vb_os_win_mutex_lock
#define pthread_mutex_unlock vb_os_win_mutex_unlock
#define pthread_cond_init vb_os_win_cond_init
#define pthread_cond_destroy vb_os_win_cond_destroy
#define pthread_cond_signal vb_os_win_cond_signal
#define pthread_cond_broadcast vb_os_win_cond_broadcast
#define pthread_cond_timedwait vb_os_win_cond_timedwait

#endif

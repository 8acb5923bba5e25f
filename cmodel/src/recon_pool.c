/* recon_pool.c - the worker threads an FBP or EM object keeps for its kernels (recon_simd.h):
 * fork-join, the calling thread taking part k = 0. An EM iteration is four or five joins about
 * 0.1 ms apart, and waking a thread from a condition variable can take tens of microseconds (more
 * in a virtual machine), so both sides first poll an atomic for a while (POOL_SPIN pauses) and
 * only then sleep on the mutex and condition variables. Only when every thread has a CPU of its
 * own: a thread that polls on a shared CPU delays the one that has the work. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "error_private.h"
#include "recon_simd.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define POOL_PAUSE() _mm_pause()
#else
#define POOL_PAUSE() ((void)0)
#endif

#define POOL_SPIN 4000u

typedef struct pool_worker {
  pinet_pool *pool;
  uint32_t k;
} pool_worker;

struct pinet_pool {
  uint32_t n;                /* threads, the caller included */
  uint32_t started;          /* workers running */
  uint32_t spin;             /* pauses to poll before sleeping: POOL_SPIN, or 0 */
  pthread_t *th;
  pool_worker *wk;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  atomic_uint_fast64_t gen;  /* bumped per job (fn and ctx are written before) */
  atomic_uint pending;       /* workers still in the current job */
  atomic_uint sleepers;      /* workers asleep on go, or about to be */
  atomic_uint caller_asleep; /* the caller asleep on done, or about to be */
  atomic_int stop;
  pinet_pool_fn fn;
  void *ctx;
};

/* Sequentially consistent on both sides of each hand-off: a worker announces that it sleeps and
 * then re-reads gen, the caller bumps gen and then reads the announcement, so one of them sees
 * the other's write (and the same for pending and caller_asleep). */
static void *pool_main(void *arg) {
  pool_worker *w = arg;
  pinet_pool *p = w->pool;
  uint64_t seen = 0;
  for (;;) {
    for (uint32_t spin = 0; spin < p->spin && atomic_load(&p->gen) == seen; spin++) {
      if (atomic_load(&p->stop)) break;
      POOL_PAUSE();
    }
    if (atomic_load(&p->gen) == seen && !atomic_load(&p->stop)) {
      pthread_mutex_lock(&p->mu);
      atomic_fetch_add(&p->sleepers, 1);
      while (atomic_load(&p->gen) == seen && !atomic_load(&p->stop)) {
        pthread_cond_wait(&p->go, &p->mu);
      }
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load(&p->stop)) break;
    seen = atomic_load(&p->gen);
    p->fn(p->ctx, w->k, p->n);
    if (atomic_fetch_sub(&p->pending, 1) == 1 && atomic_load(&p->caller_asleep)) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
  return NULL;
}

void pinet_pool_free(pinet_pool *pool) {
  if (pool == NULL) return;
  pthread_mutex_lock(&pool->mu);
  atomic_store(&pool->stop, 1);
  pthread_cond_broadcast(&pool->go);
  pthread_mutex_unlock(&pool->mu);
  for (uint32_t i = 0; i < pool->started; i++) pthread_join(pool->th[i], NULL);
  pthread_cond_destroy(&pool->go);
  pthread_cond_destroy(&pool->done);
  pthread_mutex_destroy(&pool->mu);
  free(pool->th);
  free(pool->wk);
  free(pool);
}

pinet_status pinet_pool_create(uint32_t threads, pinet_pool **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(threads == 0 || threads > PINET_RECON_MAX_THREADS, PINET_ERR_RANGE);
  if (threads == 1) return PINET_OK;
  pinet_pool *p = calloc(1, sizeof *p);
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NOMEM);
  p->n = threads;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  p->spin = cpus > 0 && threads <= (unsigned long)cpus ? POOL_SPIN : 0;
  atomic_init(&p->gen, 0);
  atomic_init(&p->pending, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->caller_asleep, 0);
  atomic_init(&p->stop, 0);
  p->th = malloc((threads - 1) * sizeof *p->th);
  p->wk = malloc((threads - 1) * sizeof *p->wk);
  if (p->th == NULL || p->wk == NULL) {
    free(p->th);
    free(p->wk);
    free(p);
    return PINET_ERR_NOMEM;
  }
  if (pthread_mutex_init(&p->mu, NULL) != 0) {
    free(p->th);
    free(p->wk);
    free(p);
    return PINET_ERR_NOMEM;
  }
  if (pthread_cond_init(&p->go, NULL) != 0) {
    pthread_mutex_destroy(&p->mu);
    free(p->th);
    free(p->wk);
    free(p);
    return PINET_ERR_NOMEM;
  }
  if (pthread_cond_init(&p->done, NULL) != 0) {
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    free(p->th);
    free(p->wk);
    free(p);
    return PINET_ERR_NOMEM;
  }
  for (uint32_t i = 0; i + 1 < threads; i++) {
    p->wk[i].pool = p;
    p->wk[i].k = i + 1;
    if (pthread_create(&p->th[i], NULL, pool_main, &p->wk[i]) != 0) {
      pinet_pool_free(p); /* joins the ones started */
      return PINET_ERR_NOMEM;
    }
    p->started++;
  }
  *out = p;
  return PINET_OK;
}

uint32_t pinet_pool_threads(const pinet_pool *pool) { return pool == NULL ? 1u : pool->n; }

void pinet_pool_run(pinet_pool *pool, pinet_pool_fn fn, void *ctx) {
  if (pool == NULL) {
    fn(ctx, 0, 1);
    return;
  }
  pool->fn = fn;
  pool->ctx = ctx;
  atomic_store(&pool->pending, pool->started);
  atomic_fetch_add(&pool->gen, 1); /* publishes fn and ctx */
  if (atomic_load(&pool->sleepers) > 0) {
    pthread_mutex_lock(&pool->mu);
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->mu);
  }
  fn(ctx, 0, pool->n);
  for (uint32_t spin = 0; spin < pool->spin && atomic_load(&pool->pending) > 0; spin++) POOL_PAUSE();
  if (atomic_load(&pool->pending) > 0) {
    pthread_mutex_lock(&pool->mu);
    atomic_store(&pool->caller_asleep, 1);
    while (atomic_load(&pool->pending) > 0) pthread_cond_wait(&pool->done, &pool->mu);
    atomic_store(&pool->caller_asleep, 0);
    pthread_mutex_unlock(&pool->mu);
  }
}

void pinet_pool_split(const uint64_t *prefix, uint64_t count, uint32_t k, uint32_t n, uint64_t *lo,
                      uint64_t *hi) {
  /* first item whose prefix reaches part k's share (n <= 256, so no overflow below 2^56) */
  const uint64_t total = prefix[count];
  uint64_t cut[2];
  for (int s = 0; s < 2; s++) {
    const uint32_t part = k + (uint32_t)s;
    if (part == 0) {
      cut[s] = 0;
      continue;
    }
    if (part >= n) {
      cut[s] = count;
      continue;
    }
    const uint64_t want = total / n * part + total % n * part / n;
    uint64_t a = 0, b = count; /* smallest i in [0, count] with prefix[i] >= want */
    while (a < b) {
      const uint64_t m = a + (b - a) / 2;
      if (prefix[m] >= want) b = m;
      else a = m + 1;
    }
    cut[s] = a;
  }
  *lo = cut[0];
  *hi = cut[1];
}

/* cancel parallel, cancel for and cancel sections in regions spanning
   the nodes: the other nodes' threads see the cancellation at their next
   cancellation point or cancellable barrier, wherever the canceling
   thread is, and the regions after a cancelled one (barriers, dynamic
   loops, copyprivate, reductions) run as usual.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-env: OMP_CANCELLATION=true */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int bad;
#define CHECK(c, ...) do { if (!(c)) { printf (__VA_ARGS__); bad = 1; } } while (0)

/* Threads poll a cancellation point for at most 20 s; the cancellation
   must reach them well before.  */
static void
cancel_seen_by_all (int canceller)
{
  int late = 0;
  double t0 = omp_get_wtime ();
#pragma omp parallel shared(late)
  {
    if (omp_get_thread_num () == canceller)
      {
#pragma omp cancel parallel
      }
    while (omp_get_wtime () - t0 < 20)
      {
#pragma omp cancellation point parallel
	usleep (100);
      }
#pragma omp atomic
    late++;
  }
  CHECK (late == 0, "cancel by thread %d: %d threads never saw it\n",
	 canceller, late);
  CHECK (omp_get_wtime () - t0 < 10, "cancel by thread %d took %.1f s\n",
	 canceller, omp_get_wtime () - t0);
}

/* The canceling thread goes to the end; the others wait in a barrier,
   which must let them go as cancelled.  */
static void
cancel_at_barrier (int canceller)
{
  int past = 0;
#pragma omp parallel shared(past)
  {
    if (omp_get_thread_num () == canceller)
      {
	usleep (20000);
#pragma omp cancel parallel
      }
#pragma omp barrier
#pragma omp atomic
    past++;
  }
  CHECK (past == 0, "cancel by thread %d: %d threads went past the "
	 "barrier\n", canceller, past);
}

/* Every thread cancels (no barrier meets them).  */
static void
cancel_everyone (void)
{
  int past = 0;
#pragma omp parallel shared(past)
  {
#pragma omp cancel parallel
#pragma omp atomic
    past++;
  }
  CHECK (past == 0, "cancel by every thread: %d went on\n", past);
}

/* A loop of 2 s per thread: thread CANCELLER cancels it at once, the
   others stop at their next cancellation point.  */
static void
cancel_loop (int canceller)
{
  int n = omp_get_max_threads () * 400, done = 0;
  double t0 = omp_get_wtime ();
#pragma omp parallel shared(done)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      {
	if (omp_get_thread_num () == canceller)
	  {
#pragma omp cancel for
	  }
	usleep (5000);
#pragma omp atomic
	done++;
#pragma omp cancellation point for
      }
    /* The loop's end barrier closed the cancellation: a second loop
       runs whole.  */
#pragma omp for schedule(dynamic)
    for (int i = 0; i < n; i++)
      {
#pragma omp cancellation point for
#pragma omp atomic
	done += 1000000;
      }
  }
  double t = omp_get_wtime () - t0;
  CHECK (done / 1000000 == n, "after a cancelled loop: %d of %d "
	 "iterations\n", done / 1000000, n);
  CHECK (done % 1000000 < n / 2 && t < 1.5,
	 "cancel for by thread %d: %d of %d iterations ran, %.2f s\n",
	 canceller, done % 1000000, n, t);
}

/* Regions after cancelled ones: barriers, copyprivate, dynamic loops and
   reductions across the nodes still pair up.  */
static void
ordinary_region (void)
{
  long sum = 0;
  int cp = 0, errs = 0;
#pragma omp parallel reduction(+: sum) shared(errs) firstprivate(cp)
  {
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < 1000; i++)
      sum += i;
#pragma omp barrier
#pragma omp single copyprivate(cp)
    cp = 42;
    if (cp != 42)
#pragma omp atomic
      errs++;
#pragma omp barrier
  }
  CHECK (sum == 999 * 1000 / 2 && errs == 0,
	 "ordinary region: sum %ld, %d copyprivate errors\n", sum, errs);
}

int
main (void)
{
  if (!omp_get_cancellation ())
    {
      printf ("OMP_CANCELLATION is not true\n");
      return 1;
    }
  int n = omp_get_max_threads ();
  for (int rep = 0; rep < 3; rep++)
    {
      cancel_seen_by_all (0);
      cancel_seen_by_all (n - 1);
      ordinary_region ();
      cancel_at_barrier (0);
      cancel_at_barrier (n - 1);
      ordinary_region ();
      cancel_everyone ();
      ordinary_region ();
      cancel_loop (0);
      cancel_loop (n - 1);
      ordinary_region ();
    }
  if (bad)
    return 1;
  printf ("OK (%d threads)\n", n);
  return 0;
}

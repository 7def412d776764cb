/* ompbench.c -- the overhead of OpenMP constructs, in the EPCC method.

   Every test times INNERREPS executions of a construct wrapped around a
   short calibrated delay, and a reference that runs the same delays without
   the construct; the overhead of one construct is
       (test time - reference time) / INNERREPS.
   INNERREPS doubles until one test takes at least the target time; the
   reference is timed REPS times and its median is subtracted from each of
   REPS timed tests, which gives REPS samples.  Each test also checks what it
   ran (iteration counts, sums, order), so a broken runtime is reported as
   such instead of being timed.

   The schedule tests follow EPCC's schedbench: every thread's share of a
   loop is SCHED_ITERS iterations of a longer delay (calibrated for 1 us by
   default), so that a loop's time is mostly work and what the schedule
   adds (one fetch of the loop counter per chunk, the imbalance at the end,
   the closing barrier) is measured against the same work run sequentially
   by each thread.  Such a loop lasts hundreds of microseconds, long enough
   for the master to time every loop on its own, and right after it the
   reference (every thread runs its SCHED_ITERS delays alone, at once): a
   sample is the median over the loops of (loop - its reference), so that
   neither the loops the machine's other work interrupted nor the drift of
   a virtual processor's speed over milliseconds decide the result.

   The binary is built with plain `gcc -fopenmp` and run unchanged on any
   runtime that serves GCC's ABI (ours, GCC's libgomp, LLVM's libomp) by
   LD_LIBRARY_PATH.  Usage:

     ompbench --list                 the test names, one a line
     ompbench --calibrate [US]       the delay length for US microseconds
     ompbench [options] TEST...      run tests (or all with no TEST)
       --delay-len N   delay loop length (default: calibrated for 0.1 us)
       --sched-delay-len N  the schedule tests' delay per iteration
                       (default: calibrated for 1 us)
       --sched-iters N iterations per thread of a schedule test's loop
                       (default 256)
       --reps K        timed samples per test (default 5)
       --target-us T   minimum time of one timed test (default 2000)
       --inner N       INNERREPS fixed at N (no search, no minimum): the
                       same work on every runtime, for profilers

   Output, one line each: "lib PATH" (the library that serves omp_*), then
   per test "sample NAME THREADS INNERREPS OVERHEAD_US" K times, or
   "fail NAME REASON".  The exit status is 1 when a test failed.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 256
#define PAD 16				/* Longs per slot: 128 bytes apart.  */
#define SCHED_MIN_LOOPS 16		/* Loops timed per schedule sample.  */

static int delay_len;
static int sched_delay_len;
static int sched_iters = 256;		/* Per thread, in a schedule test.  */
/* Tests that time each repetition (the schedule tests) store here the
   median over the repetitions of (repetition - its reference), in us, and
   the median reference.  */
static double rep_median_us, rep_ref_us;
static double *rep_diff, *rep_ref;	/* Per repetition.  */
static double *rep_thread_ref;		/* Per repetition and thread.  */
static int nthreads;
static long counts[MAX_THREADS * PAD];	/* Per-thread counters.  */
static long shared_count;		/* Updated under mutual exclusion.  */
static double shared_sum;
static long ordered_next, ordered_errors;
static omp_lock_t lock;
static char fail_reason[200];

/* The work a construct is wrapped around: a loop the compiler cannot
   remove.  Kept out of line so every test calls the same code.  */
static void __attribute__ ((noinline))
delay (int len)
{
  volatile double a = 0.0;
  for (int i = 0; i < len; i++)
    a += i;
  if (a < 0)
    printf ("%f\n", a);
}

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void
reset_counts (void)
{
  memset (counts, 0, sizeof counts);
  shared_count = 0;
  shared_sum = 0.0;
  ordered_next = 0;
  ordered_errors = 0;
}

static long
total_counts (void)
{
  long t = 0;
  for (int i = 0; i < nthreads; i++)
    t += counts[i * PAD];
  return t;
}

static void
count_me (void)
{
  counts[omp_get_thread_num () * PAD]++;
}

/* Each check returns 0 when the test did what it should, or sets
   FAIL_REASON and returns 1.  */
static int
expect (const char *what, long got, long want)
{
  if (got == want)
    return 0;
  snprintf (fail_reason, sizeof fail_reason, "wrong result: %s %ld, expected %ld",
	    what, got, want);
  return 1;
}

/* References.  */

static void
ref_serial (int reps)
{
  for (int j = 0; j < reps; j++)
    delay (delay_len);
}

/* Every thread runs REPS delays, all at once.  */
static void
ref_all (int reps)
{
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    delay (delay_len);
}

static void
ref_atomic (int reps)
{
#pragma omp parallel
  {
    int mine = reps / nthreads;
    double local = 0.0;
    for (int j = 0; j < mine; j++)
      {
	local += 1.0;
	__asm__ volatile ("" : "+x" (local));
      }
    counts[omp_get_thread_num () * PAD] = (long) local;
  }
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of the N values at V (reordered).  */
static double
median_of (double *v, int n)
{
  qsort (v, n, sizeof v[0], cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The reference of a schedule test's repetition, inside its parallel
   region: every thread runs its share of the loop sequentially, all at
   once (the machine is as busy as in the loop), and returns its time.  */
static double
sched_reference (void)
{
  double t0 = now_us ();
  for (int i = 0; i < sched_iters; i++)
    delay (sched_delay_len);
  return now_us () - t0;
}

/* Tests.  Each returns nonzero when its check failed.  */

static int
test_parallel (int reps)
{
  reset_counts ();
  for (int j = 0; j < reps; j++)
    {
#pragma omp parallel
      {
	delay (delay_len);
	count_me ();
      }
    }
  return expect ("region executions", total_counts (), (long) reps * nthreads);
}

static int
test_for (int reps)
{
  reset_counts ();
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
#pragma omp for
      for (int i = 0; i < nthreads; i++)
	{
	  delay (delay_len);
	  count_me ();
	}
    }
  return expect ("iterations", total_counts (), (long) reps * nthreads);
}

static int
test_parallel_for (int reps)
{
  reset_counts ();
  for (int j = 0; j < reps; j++)
    {
#pragma omp parallel for
      for (int i = 0; i < nthreads; i++)
	{
	  delay (delay_len);
	  count_me ();
	}
    }
  return expect ("iterations", total_counts (), (long) reps * nthreads);
}

static int
test_barrier (int reps)
{
  reset_counts ();
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
      delay (delay_len);
      count_me ();
#pragma omp barrier
      /* Everybody has counted round J.  */
      if (total_counts () < (long) (j + 1) * nthreads)
#pragma omp atomic
	shared_count++;
    }
  if (shared_count)
    {
      snprintf (fail_reason, sizeof fail_reason,
		"wrong result: %ld threads passed a barrier early", shared_count);
      return 1;
    }
  return 0;
}

static int
test_single (int reps)
{
  reset_counts ();
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
#pragma omp single
      {
	delay (delay_len);
	shared_count++;
      }
    }
  return expect ("single executions", shared_count, reps);
}

static int
test_critical (int reps)
{
  reset_counts ();
#pragma omp parallel
  {
    int mine = reps / nthreads;
    for (int j = 0; j < mine; j++)
      {
#pragma omp critical
	{
	  delay (delay_len);
	  shared_count++;
	}
      }
  }
  return expect ("critical executions", shared_count,
		 (long) (reps / nthreads) * nthreads);
}

static int
test_lock (int reps)
{
  reset_counts ();
#pragma omp parallel
  {
    int mine = reps / nthreads;
    for (int j = 0; j < mine; j++)
      {
	omp_set_lock (&lock);
	delay (delay_len);
	shared_count++;
	omp_unset_lock (&lock);
      }
  }
  return expect ("locked executions", shared_count,
		 (long) (reps / nthreads) * nthreads);
}

static int
test_ordered (int reps)
{
  reset_counts ();
  int total = reps / nthreads * nthreads;
#pragma omp parallel
  {
#pragma omp for schedule(static, 1) ordered
    for (int j = 0; j < total; j++)
      {
#pragma omp ordered
	{
	  delay (delay_len);
	  if (ordered_next != j)
	    ordered_errors++;
	  ordered_next = j + 1;
	}
      }
  }
  return expect ("iterations out of order", ordered_errors, 0)
	 || expect ("ordered executions", ordered_next, total);
}

static int
test_atomic (int reps)
{
  reset_counts ();
#pragma omp parallel
  {
    int mine = reps / nthreads;
    for (int j = 0; j < mine; j++)
      {
#pragma omp atomic
	shared_sum += 1.0;
      }
  }
  return expect ("atomic sum", (long) shared_sum,
		 (long) (reps / nthreads) * nthreads);
}

static int
test_reduction (int reps)
{
  reset_counts ();
  long bad = 0;
  for (int j = 0; j < reps; j++)
    {
      double sum = 0.0;
#pragma omp parallel reduction(+:sum)
      {
	delay (delay_len);
	sum += 1.0;
      }
      if (sum != nthreads)
	bad++;
    }
  return expect ("wrong reductions", bad, 0);
}

/* Schedules: REPS loops of SCHED_ITERS * nthreads iterations, one delay
   each, inside one parallel region.  The master times each loop (from
   leaving the barrier before it to leaving its closing barrier); then
   every thread times its reference.  The loop's reference is the mean of
   the threads' times (the work spread perfectly evenly: what a static
   schedule loses when one processor runs slower counts as overhead); the
   overhead is per loop.  */
enum sched { STATIC_NOCHUNK, STATIC, DYNAMIC, GUIDED };

static int
test_sched (int reps, enum sched kind, int chunk)
{
  reset_counts ();
  int n = sched_iters * nthreads;
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
      double t0 = 0;
      /* Everyone has finished the previous reference.  */
#pragma omp barrier
#pragma omp master
      t0 = now_us ();
      switch (kind)
	{
	case STATIC_NOCHUNK:
#pragma omp for schedule(static)
	  for (int i = 0; i < n; i++)
	    {
	      delay (sched_delay_len);
	      count_me ();
	    }
	  break;
	case STATIC:
#pragma omp for schedule(static, chunk)
	  for (int i = 0; i < n; i++)
	    {
	      delay (sched_delay_len);
	      count_me ();
	    }
	  break;
	case DYNAMIC:
#pragma omp for schedule(dynamic, chunk)
	  for (int i = 0; i < n; i++)
	    {
	      delay (sched_delay_len);
	      count_me ();
	    }
	  break;
	case GUIDED:
#pragma omp for schedule(guided, chunk)
	  for (int i = 0; i < n; i++)
	    {
	      delay (sched_delay_len);
	      count_me ();
	    }
	  break;
	}
#pragma omp master
      rep_diff[j] = now_us () - t0;
      rep_thread_ref[(long) j * nthreads + omp_get_thread_num ()]
	= sched_reference ();
    }
  for (int j = 0; j < reps; j++)
    {
      double sum = 0;
      for (int i = 0; i < nthreads; i++)
	sum += rep_thread_ref[(long) j * nthreads + i];
      rep_ref[j] = sum / nthreads;
      rep_diff[j] -= rep_ref[j];
    }
  rep_median_us = median_of (rep_diff, reps);
  rep_ref_us = median_of (rep_ref, reps);
  return expect ("iterations", total_counts (), (long) reps * n);
}

#define SCHED_TEST(NAME, KIND, CHUNK) \
  static int NAME (int reps) { return test_sched (reps, KIND, CHUNK); }
SCHED_TEST (test_static, STATIC_NOCHUNK, 0)
SCHED_TEST (test_static_1, STATIC, 1)
SCHED_TEST (test_static_8, STATIC, 8)
SCHED_TEST (test_static_64, STATIC, 64)
SCHED_TEST (test_dynamic_1, DYNAMIC, 1)
SCHED_TEST (test_dynamic_8, DYNAMIC, 8)
SCHED_TEST (test_dynamic_64, DYNAMIC, 64)
SCHED_TEST (test_guided_1, GUIDED, 1)
SCHED_TEST (test_guided_8, GUIDED, 8)
SCHED_TEST (test_guided_64, GUIDED, 64)

/* Tasks: every thread creates REPS tasks of one delay each; the overhead is
   per task (creation, scheduling, the share of the closing barrier).  */
static int
test_task (int reps)
{
  reset_counts ();
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
#pragma omp task
      {
	delay (delay_len);
	count_me ();
      }
    }
  return expect ("tasks run", total_counts (), (long) reps * nthreads);
}

/* One thread creates every task; the team runs them.  */
static int
test_task_master (int reps)
{
  reset_counts ();
#pragma omp parallel
#pragma omp master
  for (long j = 0; j < (long) reps * nthreads; j++)
    {
#pragma omp task
      {
	delay (delay_len);
	count_me ();
      }
    }
  return expect ("tasks run", total_counts (), (long) reps * nthreads);
}

/* Every thread creates a task and waits for it, REPS times.  */
static int
test_taskwait (int reps)
{
  reset_counts ();
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    {
#pragma omp task
      {
	delay (delay_len);
	count_me ();
      }
#pragma omp taskwait
    }
  return expect ("tasks run", total_counts (), (long) reps * nthreads);
}

struct test
{
  const char *name;
  int (*test) (int);
  void (*ref) (int);
  /* Times each repetition against its own reference (rep_median_us);
     REF is then NULL.  */
  bool per_rep;
};

static const struct test tests[] = {
  { "parallel", test_parallel, ref_serial },
  { "for", test_for, ref_serial },
  { "parallel_for", test_parallel_for, ref_serial },
  { "barrier", test_barrier, ref_all },
  { "single", test_single, ref_serial },
  { "critical", test_critical, ref_serial },
  { "lock", test_lock, ref_serial },
  { "ordered", test_ordered, ref_serial },
  { "atomic", test_atomic, ref_atomic },
  { "reduction", test_reduction, ref_serial },
  { "static", test_static, NULL, true },
  { "static_1", test_static_1, NULL, true },
  { "static_8", test_static_8, NULL, true },
  { "static_64", test_static_64, NULL, true },
  { "dynamic_1", test_dynamic_1, NULL, true },
  { "dynamic_8", test_dynamic_8, NULL, true },
  { "dynamic_64", test_dynamic_64, NULL, true },
  { "guided_1", test_guided_1, NULL, true },
  { "guided_8", test_guided_8, NULL, true },
  { "guided_64", test_guided_64, NULL, true },
  { "task", test_task, ref_all },
  { "task_master", test_task_master, ref_all },
  { "taskwait", test_taskwait, ref_all },
};
#define NTESTS (int) (sizeof tests / sizeof tests[0])

static int
calibrate (double us)
{
  int len = 1;
  for (;;)
    {
      double best = 1e30;
      for (int k = 0; k < 5; k++)
	{
	  double t0 = now_us ();
	  for (int r = 0; r < 1000; r++)
	    delay (len);
	  double t = (now_us () - t0) / 1000;
	  if (t < best)
	    best = t;
	}
      if (best >= us || len > (1 << 28))
	return len;
      len = best < us / 4 ? len * 2 : len + len / 8 + 1;
    }
}

/* Room for N repetitions' times.  */
static void
reps_reserve (int n)
{
  static int room;
  if (n <= room)
    return;
  free (rep_diff);
  free (rep_ref);
  free (rep_thread_ref);
  room = n;
  rep_diff = malloc (room * sizeof rep_diff[0]);
  rep_ref = malloc (room * sizeof rep_ref[0]);
  rep_thread_ref = malloc ((size_t) room * nthreads
			   * sizeof rep_thread_ref[0]);
  if (rep_diff == NULL || rep_ref == NULL || rep_thread_ref == NULL)
    {
      fprintf (stderr, "ompbench: out of memory\n");
      exit (2);
    }
}

static int
median_index (double *v, int n)
{
  qsort (v, n, sizeof v[0], cmp_double);
  return n / 2;
}

/* A test that times each repetition against its own reference (the
   schedules): INNERREPS makes one timed test last TARGET_US, with at least
   SCHED_MIN_LOOPS repetitions; a sample is the median over the
   repetitions of (repetition - its reference).  */
static int
run_test_per_rep (const struct test *t, int reps, double target_us,
		  int fixed_inner, double *samples, int *innerp)
{
  int inner = fixed_inner;

  reps_reserve (1);
  if (t->test (1))
    return 1;
  if (!inner)
    {
      /* A repetition is the loop and its reference.  */
      double one = 2 * rep_ref_us > 1 ? 2 * rep_ref_us : 1;
      inner = target_us / one + 1;
      if (inner < SCHED_MIN_LOOPS)
	inner = SCHED_MIN_LOOPS;
      if (inner > (1 << 16))
	inner = 1 << 16;
    }
  reps_reserve (inner);
  for (int r = 0; r < reps; r++)
    {
      if (t->test (inner))
	return 1;
      samples[r] = rep_median_us;
    }
  *innerp = inner;
  return 0;
}

static int
run_test (const struct test *t, int reps, double target_us, int fixed_inner)
{
  int inner = 1;
  double samples[1000];

  if (t->per_rep)
    {
      if (run_test_per_rep (t, reps, target_us, fixed_inner, samples,
			    &inner))
	goto failed;
      goto report;
    }

  /* Warm up the team, then grow INNERREPS until one test lasts long
     enough; every run is also checked.  */
  if (t->test (1))
    goto failed;
  if (fixed_inner)
    inner = fixed_inner;
  else
    for (;;)
      {
	double best = 1e30;
	for (int k = 0; k < 2; k++)
	  {
	    double t0 = now_us ();
	    if (t->test (inner))
	      goto failed;
	    double t1 = now_us () - t0;
	    if (t1 < best)
	      best = t1;
	  }
	if (best >= target_us || inner >= (1 << 24))
	  break;
	inner *= 2;
      }

  double refs[1000];
  for (int r = 0; r < reps; r++)
    {
      double t0 = now_us ();
      t->ref (inner);
      refs[r] = now_us () - t0;
    }
  double ref = refs[median_index (refs, reps)];
  for (int r = 0; r < reps; r++)
    {
      double t0 = now_us ();
      if (t->test (inner))
	goto failed;
      samples[r] = (now_us () - t0 - ref) / inner;
    }
report:
  for (int r = 0; r < reps; r++)
    printf ("sample %s %d %d %.4f\n", t->name, nthreads, inner, samples[r]);
  fflush (stdout);
  return 0;

failed:
  printf ("fail %s %s\n", t->name, fail_reason);
  fflush (stdout);
  return 1;
}

static void
usage (void)
{
  fprintf (stderr, "usage: ompbench --list | --calibrate [US] | "
	   "[--delay-len N] [--sched-delay-len N] [--sched-iters N] [--reps K]\n"
	   "       [--target-us T] [--inner N] [TEST...]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  int reps = 5;
  double target_us = 2000;
  int first_test = argc;
  int fixed_inner = 0;

  for (int i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--list"))
	{
	  for (int t = 0; t < NTESTS; t++)
	    puts (tests[t].name);
	  return 0;
	}
      else if (!strcmp (argv[i], "--calibrate"))
	{
	  double us = i + 1 < argc ? atof (argv[i + 1]) : 0.1;
	  printf ("%d\n", calibrate (us > 0 ? us : 0.1));
	  return 0;
	}
      else if (!strcmp (argv[i], "--delay-len") && i + 1 < argc)
	delay_len = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--sched-delay-len") && i + 1 < argc)
	sched_delay_len = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--sched-iters") && i + 1 < argc)
	sched_iters = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--inner") && i + 1 < argc)
	fixed_inner = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--reps") && i + 1 < argc)
	reps = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--target-us") && i + 1 < argc)
	target_us = atof (argv[++i]);
      else if (argv[i][0] == '-')
	usage ();
      else
	{
	  first_test = i;
	  break;
	}
    }
  if (reps < 1 || reps > 1000 || sched_iters < 1 || fixed_inner < 0)
    usage ();
  if (delay_len <= 0)
    delay_len = calibrate (0.1);
  if (sched_delay_len <= 0)
    sched_delay_len = calibrate (1.0);

  /* Which library serves the OpenMP API: the driver checks it.  */
  Dl_info info;
  void *sym = dlsym (RTLD_DEFAULT, "omp_get_num_threads");
  printf ("lib %s\n", sym && dladdr (sym, &info) && info.dli_fname
	  ? info.dli_fname : "unknown");

#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads ();
  if (nthreads > MAX_THREADS)
    {
      fprintf (stderr, "ompbench: at most %d threads\n", MAX_THREADS);
      return 2;
    }
  omp_init_lock (&lock);

  int failed = 0;
  if (first_test == argc)
    for (int t = 0; t < NTESTS; t++)
      failed |= run_test (&tests[t], reps, target_us, fixed_inner);
  else
    for (int i = first_test; i < argc; i++)
      {
	int t;
	for (t = 0; t < NTESTS; t++)
	  if (!strcmp (argv[i], tests[t].name))
	    break;
	if (t == NTESTS)
	  {
	    fprintf (stderr, "ompbench: no test '%s' (see --list)\n", argv[i]);
	    return 2;
	  }
	failed |= run_test (&tests[t], reps, target_us, fixed_inner);
      }
  omp_destroy_lock (&lock);
  return failed;
}

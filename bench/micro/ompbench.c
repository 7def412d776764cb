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

   The binary is built with plain `gcc -fopenmp` and run unchanged on any
   runtime that serves GCC's ABI (ours, GCC's libgomp, LLVM's libomp) by
   LD_LIBRARY_PATH.  Usage:

     ompbench --list                 the test names, one a line
     ompbench --calibrate [US]       the delay length for US microseconds
     ompbench [options] TEST...      run tests (or all with no TEST)
       --delay-len N   delay loop length (default: calibrated for 0.1 us)
       --reps K        timed samples per test (default 5)
       --target-us T   minimum time of one timed test (default 2000)

   Output, one line each: "lib PATH" (the library that serves omp_*), then
   per test "sample NAME THREADS INNERREPS OVERHEAD_US" K times, or
   "fail NAME REASON".  The exit status is 1 when a test failed.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 256
#define PAD 16				/* Longs per slot: 128 bytes apart.  */
#define SCHED_ITERS_PER_THREAD 128	/* Iterations of a schedule test.  */

static int delay_len;
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

static void
ref_sched (int reps)
{
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    for (int i = 0; i < SCHED_ITERS_PER_THREAD; i++)
      delay (delay_len);
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

/* Schedules: REPS loops of SCHED_ITERS_PER_THREAD * nthreads iterations,
   one delay each, inside one parallel region; the overhead is per loop.  */
enum sched { STATIC_NOCHUNK, STATIC, DYNAMIC, GUIDED };

static int
test_sched (int reps, enum sched kind, int chunk)
{
  reset_counts ();
  int n = SCHED_ITERS_PER_THREAD * nthreads;
#pragma omp parallel
  for (int j = 0; j < reps; j++)
    switch (kind)
      {
      case STATIC_NOCHUNK:
#pragma omp for schedule(static)
	for (int i = 0; i < n; i++)
	  {
	    delay (delay_len);
	    count_me ();
	  }
	break;
      case STATIC:
#pragma omp for schedule(static, chunk)
	for (int i = 0; i < n; i++)
	  {
	    delay (delay_len);
	    count_me ();
	  }
	break;
      case DYNAMIC:
#pragma omp for schedule(dynamic, chunk)
	for (int i = 0; i < n; i++)
	  {
	    delay (delay_len);
	    count_me ();
	  }
	break;
      case GUIDED:
#pragma omp for schedule(guided, chunk)
	for (int i = 0; i < n; i++)
	  {
	    delay (delay_len);
	    count_me ();
	  }
	break;
      }
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
  { "static", test_static, ref_sched },
  { "static_1", test_static_1, ref_sched },
  { "static_8", test_static_8, ref_sched },
  { "static_64", test_static_64, ref_sched },
  { "dynamic_1", test_dynamic_1, ref_sched },
  { "dynamic_8", test_dynamic_8, ref_sched },
  { "dynamic_64", test_dynamic_64, ref_sched },
  { "guided_1", test_guided_1, ref_sched },
  { "guided_8", test_guided_8, ref_sched },
  { "guided_64", test_guided_64, ref_sched },
  { "task", test_task, ref_all },
  { "task_master", test_task_master, ref_all },
  { "taskwait", test_taskwait, ref_all },
};
#define NTESTS (int) (sizeof tests / sizeof tests[0])

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

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

static int
run_test (const struct test *t, int reps, double target_us)
{
  int inner = 1;
  double samples[1000];

  /* Warm up the team, then grow INNERREPS until one test lasts long
     enough; every run is also checked.  */
  if (t->test (1))
    goto failed;
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
  qsort (refs, reps, sizeof refs[0], cmp_double);
  double ref = refs[reps / 2];
  for (int r = 0; r < reps; r++)
    {
      double t0 = now_us ();
      if (t->test (inner))
	goto failed;
      samples[r] = (now_us () - t0 - ref) / inner;
    }
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
	   "[--delay-len N] [--reps K] [--target-us T] [TEST...]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  int reps = 5;
  double target_us = 2000;
  int first_test = argc;

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
  if (reps < 1 || reps > 1000)
    usage ();
  if (delay_len <= 0)
    delay_len = calibrate (0.1);

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
      failed |= run_test (&tests[t], reps, target_us);
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
	failed |= run_test (&tests[t], reps, target_us);
      }
  omp_destroy_lock (&lock);
  return failed;
}

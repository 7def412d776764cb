/* cmicro.c -- what OpenMP constructs cost on ompcluster, across nodes.

   A plain OpenMP program, compiled with bin/ompcc and launched with
   `bin/ompcrun -n NODES -t THREADS cmicro NODES TEST [SCALE]`.  It must
   know NODES (an OpenMP program cannot ask) to tell which global thread
   numbers live on the last node: threads are numbered rank-major, so with
   N threads on P nodes the last node holds the top N/P numbers.

   Prints "cmicro TEST MEDIAN_US MIN_US" (the median and minimum over the
   samples of one operation's cost), or "cfail TEST REASON" and exits 1 when
   the test saw a wrong result.  Tests:
     barrier      one `omp barrier` of the whole team
     parallel     an empty `omp parallel` region, start to end
     read_fault   a thread of the last node reads a page last written by
                  node 0 (its home, by first touch), which it read before:
                  one remote read fault
     read_fault_cold  the same on a page the reader never used (its first
                  touch on each node costs a page fault of the kernel:
                  ~12 us on this project's virtual machines)
     write_fault  the same thread then writes that page, of which it holds
                  a read-only copy: a write fault on a non-home page
     write_fault_absent  a write to a non-home page the node has no copy of
     read_fault_busy  read_fault while node 0's threads compute (none
                  waits in the region's barrier, where it would serve at
                  once), the reader computing ~100 us between faults: how
                  soon a busy home answers
     read_seq_cold  a thread of the last node reads, in sequence, one byte
                  of each page of 4 MiB that node 0 wrote (their home) and
                  it never used, per page: a bulk transfer of fresh data
                  (the DSM fetches runs of pages; a node reading its input
                  or a task's thief reading its creator's new arrays)
     lock         omp_set_lock/omp_unset_lock, every thread contending
     critical     an unnamed critical section, every thread contending
     atomic       `omp atomic` increment of a shared counter, all threads
     dynamic      one chunk of a schedule(dynamic, 1) loop
     single       `omp single` (with its barrier)
     reduction    an `omp for reduction(+:)` over one iteration per thread
   With one node the fault tests measure plain memory accesses.  Each test
   checks the values it reads, so a DSM that serves stale data fails.  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLES 7
#define NPAGES 64
#define PAGE 4096

/* Two sets of pages for the warm faults, a page apart (never written:
   a run of blocks fetched ahead together is used as a whole once one of
   them is, and one run over both sets would keep both fetched ahead).  */
static char pages[2][NPAGES + 1][PAGE] __attribute__ ((aligned (PAGE)));
static char cold[SAMPLES][NPAGES][PAGE] __attribute__ ((aligned (PAGE)));
static char pages2[SAMPLES + 1][NPAGES][PAGE] __attribute__ ((aligned (PAGE)));
static long shared_count;
static int busy_done;
static double samples[SAMPLES];
static int nodes, nthreads, bad;
static long scale = 1;
static omp_lock_t lock;

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* Computes for about US microseconds.  */
static void
spin_us (double us)
{
  double t0 = now_us ();
  volatile double x = 1;
  while (now_us () - t0 < us)
    x = x * 1.0000001 + 1e-9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof v[0], cmp_double);
  return v[n / 2];
}

/* The global number of a thread on the last node.  */
static int
last_node_thread (void)
{
  return nthreads - 1;
}

static void
t_barrier (void)
{
  long reps = 200 * scale;
#pragma omp parallel
  for (int s = 0; s < SAMPLES; s++)
    {
      double t0 = 0;
#pragma omp barrier
      if (omp_get_thread_num () == 0)
	t0 = now_us ();
      for (long j = 0; j < reps; j++)
	{
#pragma omp barrier
	}
      if (omp_get_thread_num () == 0)
	samples[s] = (now_us () - t0) / reps;
    }
}

static void
t_parallel (void)
{
  long reps = 100 * scale;
  for (int s = 0; s < SAMPLES; s++)
    {
      shared_count = 0;
      double t0 = now_us ();
      for (long j = 0; j < reps; j++)
	{
#pragma omp parallel
	  {
	    if (omp_get_thread_num () == 0)
	      shared_count++;
	  }
	}
      samples[s] = (now_us () - t0) / reps;
      if (shared_count != reps)
	bad = 1;
    }
}

/* The order the fault tests touch the pages in: a fixed shuffle with no
   two pages in sequence and no three a stride apart at even steps, so
   that the DSM fetches no page ahead (dsm/fetch.c) and every access is
   one fault.  ((k * 37) % NPAGES, the order before, walks the even pages
   10 apart every other step: a stride.)  */
static const unsigned char order[NPAGES] = {
  27, 51, 16, 28, 9, 47, 24, 17, 57, 33, 42, 61, 18, 0, 2, 39,
  62, 41, 15, 25, 23, 48, 38, 54, 32, 11, 20, 58, 43, 12, 60, 22,
  49, 36, 13, 53, 3, 26, 1, 6, 31, 30, 19, 5, 29, 46, 40, 50,
  45, 59, 10, 52, 8, 35, 14, 55, 44, 56, 34, 63, 4, 21, 37, 7
};

/* Per sample: node 0's master writes every page of two sets (their home,
   by first touch), then one thread of the last node reads one byte of
   each page of one set, in a scattered order, timing each access (the
   write tests then write it back, and write_fault_absent writes a fresh
   set of PAGES2 too).  The sets take turns: a node's acquire fetches
   again, ahead, the pages it used since their last such fetch that
   others wrote (dsm/acquire.c), so rereading one set measured no fault
   from the second sample on (0.1 us); a set used two samples ago was
   fetched ahead since and not used, and faults again.  The first two
   samples (of 7) meet pages never used; read_fault_cold reads a fresh
   set in every sample (WHICH 4).  */
static void
t_faults (int which)
{
  for (int s = 0; s < SAMPLES; s++)
    {
      for (int p = 0; p < NPAGES; p++)
	{
	  pages[0][p][p % PAGE] = (char) (s + 1);
	  pages[1][p][p % PAGE] = (char) (s + 1);
	  if (which == 4)
	    cold[s][p][p % PAGE] = (char) (s + 1);
	  pages2[s][p][p] = (char) (s + 1);
	}
      busy_done = 0;
      char (*set)[PAGE] = which == 4 ? cold[s] : pages[s & 1];
#pragma omp parallel
      if (omp_get_thread_num () == last_node_thread ())
	{
	  double rd[NPAGES], wr[NPAGES], wa[NPAGES];
	  for (int k = 0; k < NPAGES; k++)
	    {
	      int p = order[k];
	      if (which == 3)
		spin_us (100);
	      double t0 = now_us ();
	      char v = ((volatile char *) set[p])[p % PAGE];
	      rd[k] = now_us () - t0;
	      if (v != (char) (s + 1))
		bad = 1;
	    }
	  if (which == 3)
	    {
#pragma omp atomic write
	      busy_done = 1;
	    }
	  for (int k = 0; k < NPAGES && (which == 1 || which == 2); k++)
	    {
	      int p = order[k];
	      double t0 = now_us ();
	      ((volatile char *) set[p])[p % PAGE + 1] = (char) s;
	      wr[k] = now_us () - t0;
	    }
	  for (int k = 0; k < NPAGES && which == 2; k++)
	    {
	      int p = order[k];
	      double t0 = now_us ();
	      ((volatile char *) pages2[s][p])[p + 1] = (char) s;
	      wa[k] = now_us () - t0;
	    }
	  samples[s] = median (which == 0 || which >= 3 ? rd
			       : which == 1 ? wr : wa, NPAGES);
	}
      else if (which == 3 && nodes > 1
	       && omp_get_thread_num () < nthreads / nodes)
	{
	  /* Node 0's threads: busy until the reader is done (none waits
	     in the barrier, where it would serve the reader at once).  */
	  int done = 0;
	  while (!done)
	    {
	      spin_us (20);
#pragma omp atomic read
	      done = busy_done;
	    }
	}
      /* The writes of the last node reached node 0.  */
      for (int p = 0; p < NPAGES; p++)
	if (((which == 1 || which == 2) && set[p][p % PAGE + 1] != (char) s)
	    || (which == 2 && pages2[s][p][p + 1] != (char) s))
	  bad = 1;
    }
}

/* Per sample: node 0's master writes one byte of every page of a fresh
   4 MiB (malloc'ed at the start, one per sample, so that no page is
   used twice), then one thread of the last node reads them in sequence,
   checking each; the time per page.  */
#define SEQ_PAGES 1024
static void
t_read_seq_cold (void)
{
  static char *seq[SAMPLES];
  for (int s = 0; s < SAMPLES; s++)
    if (!(seq[s] = malloc ((size_t) SEQ_PAGES * PAGE)))
      {
	bad = 1;
	return;
      }
  for (int s = 0; s < SAMPLES; s++)
    {
      char *a = seq[s];
      for (long p = 0; p < SEQ_PAGES; p++)
	a[p * PAGE + p % PAGE] = (char) (s + p);
#pragma omp parallel
      if (omp_get_thread_num () == last_node_thread ())
	{
	  double t0 = now_us ();
	  for (long p = 0; p < SEQ_PAGES; p++)
	    if (((volatile char *) a)[p * PAGE + p % PAGE] != (char) (s + p))
	      bad = 1;
	  samples[s] = (now_us () - t0) / SEQ_PAGES;
	}
    }
  for (int s = 0; s < SAMPLES; s++)
    free (seq[s]);
}

enum mutex { LOCK, CRITICAL, ATOMIC };

static void
t_mutex (enum mutex kind)
{
  long reps = 100 * scale;
  shared_count = 0;
  /* Timed inside one region, between two barriers, so that the region's
     start and end are not counted.  */
#pragma omp parallel
  for (int s = 0; s < SAMPLES; s++)
    {
      double t0 = 0;
#pragma omp barrier
      if (omp_get_thread_num () == 0)
	t0 = now_us ();
      for (long j = 0; j < reps; j++)
	switch (kind)
	  {
	  case LOCK:
	    omp_set_lock (&lock);
	    shared_count++;
	    omp_unset_lock (&lock);
	    break;
	  case CRITICAL:
#pragma omp critical
	    shared_count++;
	    break;
	  case ATOMIC:
#pragma omp atomic
	    shared_count++;
	    break;
	  }
#pragma omp barrier
      /* Per operation of one thread, all contending: the time one
	 operation holds up the others.  */
      if (omp_get_thread_num () == 0)
	samples[s] = (now_us () - t0) / (reps * nthreads);
    }
  if (shared_count != reps * nthreads * SAMPLES)
    bad = 1;
}

static void
t_dynamic (void)
{
  long iters = 100 * scale * nthreads;
  shared_count = 0;
#pragma omp parallel
  for (int s = 0; s < SAMPLES; s++)
    {
      double t0 = 0;
      long mine = 0;
#pragma omp barrier
      if (omp_get_thread_num () == 0)
	t0 = now_us ();
#pragma omp for schedule(dynamic, 1)
      for (long i = 0; i < iters; i++)
	mine++;
      /* The loop's closing barrier has passed.  */
      if (omp_get_thread_num () == 0)
	samples[s] = (now_us () - t0) / iters;
#pragma omp atomic
      shared_count += mine;
    }
  if (shared_count != iters * SAMPLES)
    bad = 1;
}

static void
t_single (void)
{
  long reps = 100 * scale;
  shared_count = 0;
#pragma omp parallel
  for (int s = 0; s < SAMPLES; s++)
    {
      double t0 = 0;
#pragma omp barrier
      if (omp_get_thread_num () == 0)
	t0 = now_us ();
      for (long j = 0; j < reps; j++)
	{
#pragma omp single
	  shared_count++;
	}
      if (omp_get_thread_num () == 0)
	samples[s] = (now_us () - t0) / reps;
    }
  if (shared_count != reps * SAMPLES)
    bad = 1;
}

static void
t_reduction (void)
{
  long reps = 100 * scale;
  long sum = 0;
#pragma omp parallel
  for (int s = 0; s < SAMPLES; s++)
    {
      double t0 = 0;
#pragma omp barrier
      if (omp_get_thread_num () == 0)
	t0 = now_us ();
      for (long j = 0; j < reps; j++)
	{
#pragma omp for reduction(+:sum)
	  for (int i = 0; i < nthreads; i++)
	    sum++;
	}
      if (omp_get_thread_num () == 0)
	samples[s] = (now_us () - t0) / reps;
    }
  if (sum != reps * SAMPLES * nthreads)
    bad = 1;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: cmicro NODES TEST [SCALE]\n");
      return 2;
    }
  nodes = atoi (argv[1]);
  const char *test = argv[2];
  if (argc > 3)
    scale = atol (argv[3]);
  if (nodes < 1 || scale < 1)
    return 2;
#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads ();
  if (nthreads < nodes)
    {
      printf ("cfail %s team of %d threads on %d nodes\n", test, nthreads, nodes);
      return 1;
    }
  omp_init_lock (&lock);
  if (!strcmp (test, "barrier"))
    t_barrier ();
  else if (!strcmp (test, "parallel"))
    t_parallel ();
  else if (!strcmp (test, "read_fault"))
    t_faults (0);
  else if (!strcmp (test, "write_fault"))
    t_faults (1);
  else if (!strcmp (test, "write_fault_absent"))
    t_faults (2);
  else if (!strcmp (test, "read_fault_busy"))
    t_faults (3);
  else if (!strcmp (test, "read_fault_cold"))
    t_faults (4);
  else if (!strcmp (test, "read_seq_cold"))
    t_read_seq_cold ();
  else if (!strcmp (test, "lock"))
    t_mutex (LOCK);
  else if (!strcmp (test, "critical"))
    t_mutex (CRITICAL);
  else if (!strcmp (test, "atomic"))
    t_mutex (ATOMIC);
  else if (!strcmp (test, "dynamic"))
    t_dynamic ();
  else if (!strcmp (test, "single"))
    t_single ();
  else if (!strcmp (test, "reduction"))
    t_reduction ();
  else
    {
      fprintf (stderr, "cmicro: no test '%s'\n", test);
      return 2;
    }
  omp_destroy_lock (&lock);
  if (bad)
    {
      printf ("cfail %s wrong result (a stale or lost update)\n", test);
      return 1;
    }
  double copy[SAMPLES];
  memcpy (copy, samples, sizeof copy);
  qsort (copy, SAMPLES, sizeof copy[0], cmp_double);
  printf ("cmicro %s %.3f %.3f\n", test, copy[SAMPLES / 2], copy[0]);
  return 0;
}

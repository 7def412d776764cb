/* The GOMP 1.0 entry points older compilers emitted for combined
   constructs, called directly: GOMP_parallel_loop_dynamic_start,
   GOMP_parallel_loop_guided_start, GOMP_parallel_sections_start and
   GOMP_parallel_start, each followed by the caller's own share of the work
   and GOMP_parallel_end.  Across nodes every node must set up the same
   loop; each iteration (section) runs exactly once.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>

extern void GOMP_parallel_loop_dynamic_start (void (*) (void *), void *,
					      unsigned, long, long, long,
					      long);
extern void GOMP_parallel_loop_guided_start (void (*) (void *), void *,
					     unsigned, long, long, long,
					     long);
extern void GOMP_parallel_sections_start (void (*) (void *), void *,
					  unsigned, unsigned);
extern void GOMP_parallel_start (void (*) (void *), void *, unsigned);
extern void GOMP_parallel_end (void);
extern bool GOMP_loop_dynamic_next (long *, long *);
extern bool GOMP_loop_guided_next (long *, long *);
extern void GOMP_loop_end_nowait (void);
extern unsigned GOMP_sections_next (void);
extern void GOMP_sections_end_nowait (void);

#define N 300
static int hits[N + 1], team;
static bool guided;

static void
loop_body (void *data)
{
  long s, e;
  while (guided ? GOMP_loop_guided_next (&s, &e)
		: GOMP_loop_dynamic_next (&s, &e))
    for (long i = s; i < e; i += 3)
      __atomic_fetch_add (&hits[i], 1, __ATOMIC_RELAXED);
  GOMP_loop_end_nowait ();
}

static void
sections_body (void *data)
{
  unsigned s;
  while ((s = GOMP_sections_next ()) != 0)
    __atomic_fetch_add (&hits[s], 1, __ATOMIC_RELAXED);
  GOMP_sections_end_nowait ();
}

static void
plain_body (void *data)
{
  __atomic_fetch_add (&hits[omp_get_thread_num ()], 1, __ATOMIC_RELAXED);
  if (omp_get_thread_num () == 0)
    team = omp_get_num_threads ();
}

static int
check (const char *what, int from, int to, int step)
{
  int bad = 0;
  for (int i = 0; i <= N; i++)
    {
      int want = i >= from && i < to && (i - from) % step == 0;
      if (hits[i] != want)
	bad++;
      hits[i] = 0;
    }
  if (bad)
    printf ("%s: %d items wrong\n", what, bad);
  return bad;
}

int
main (void)
{
  int fails = 0;
  GOMP_parallel_loop_dynamic_start (loop_body, NULL, 0, 0, N, 3, 2);
  loop_body (NULL);
  GOMP_parallel_end ();
  fails += check ("dynamic", 0, N, 3);
  guided = true;
  omp_set_num_threads (omp_get_max_threads ());	/* ICVs reach every node */
  GOMP_parallel_loop_guided_start (loop_body, NULL, 0, 1, N, 3, 1);
  loop_body (NULL);
  GOMP_parallel_end ();
  fails += check ("guided", 1, N, 3);
  GOMP_parallel_sections_start (sections_body, NULL, 0, 17);
  sections_body (NULL);
  GOMP_parallel_end ();
  fails += check ("sections", 1, 18, 1);
  GOMP_parallel_start (plain_body, NULL, 0);
  plain_body (NULL);
  GOMP_parallel_end ();
  fails += check ("parallel", 0, team, 1);
  if (fails)
    return 1;
  printf ("OK %d threads\n", team);
  return 0;
}

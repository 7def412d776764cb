/* Undeferred tasks (if(0), final, orphaned, throttled) read their
   creator's ICVs until they change one; a change stays inside the task,
   reaches the tasks it creates afterwards, and not those created before
   it or its creator.  Children of an undeferred task outlive it.  */
/* ompc-nodes: 1 1x2 1x4 2x1 2x2 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static int bad;

static void
check (const char *what, int got, int want)
{
  if (got != want)
    {
      printf ("%s: %d, expected %d\n", what, got, want);
      bad = 1;
    }
}

/* In an undeferred task of a creator whose nthreads-var is BASE.  */
static void
undeferred_body (int base, int depth)
{
  int before_child = -1, after_child = -1, nested = -1, nested_after = -1;
  check ("undeferred task sees its creator's ICV", omp_get_max_threads (),
	 base);
  #pragma omp task shared(before_child)
  before_child = omp_get_max_threads ();
  omp_set_num_threads (base + 5);
  omp_set_dynamic (1);
  #pragma omp task shared(after_child)
  after_child = omp_get_max_threads ();
  #pragma omp task if(0) shared(nested, nested_after)
  {
    nested = omp_get_max_threads ();
    omp_set_num_threads (base + 9);
    nested_after = omp_get_max_threads ();
  }
  #pragma omp taskwait
  check ("child created before the change", before_child, base);
  check ("child created after the change", after_child, base + 5);
  check ("nested undeferred task", nested, base + 5);
  check ("nested undeferred task's change", nested_after, base + 9);
  check ("change after a nested task's", omp_get_max_threads (), base + 5);
  check ("dyn-var in the task", omp_get_dynamic (), 1);
  if (depth > 0)
    {
      #pragma omp task final(1)
      undeferred_body (base + 5, depth - 1);
      check ("after a final task", omp_get_max_threads (), base + 5);
    }
}

int
main (void)
{
  int outer = omp_get_max_threads ();
  int dyn = omp_get_dynamic ();

  /* Orphaned: the initial thread's task, which may not have changed any
     ICV yet.  */
  #pragma omp task
  undeferred_body (outer, 2);
  check ("initial task after the orphaned one", omp_get_max_threads (),
	 outer);
  check ("initial task's dyn-var", omp_get_dynamic (), dyn);

  #pragma omp parallel num_threads(2)
  {
    int base = omp_get_max_threads ();
    #pragma omp task if(0)
    undeferred_body (base, 2);
    check ("implicit task after if(0)", omp_get_max_threads (), base);

    /* Throttled: far more tasks than the team may hold, each changing its
       ICV; every one starts from the implicit task's value.  */
    int wrong = 0;
    for (int i = 0; i < 5000; i++)
      {
	#pragma omp task shared(wrong)
	{
	  if (omp_get_max_threads () != base)
	    {
	      #pragma omp atomic
	      wrong++;
	    }
	  omp_set_num_threads (base + 1 + i % 7);
	}
      }
    #pragma omp taskwait
    check ("tasks that saw a sibling's change", wrong, 0);
    check ("implicit task after many tasks", omp_get_max_threads (), base);

    /* A deferred grandchild outlives its undeferred parent.  */
    int done = 0;
    #pragma omp task if(0) shared(done)
    {
      #pragma omp task shared(done)
      {
	for (volatile int k = 0; k < 100000; k++)
	  ;
	#pragma omp atomic
	done++;
      }
    }
    #pragma omp barrier
    check ("grandchild ran", done, 1);
  }
  check ("initial task after the region", omp_get_max_threads (), outer);
  if (!bad)
    printf ("OK\n");
  return bad;
}

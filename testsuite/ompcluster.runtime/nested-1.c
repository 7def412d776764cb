/* Nested parallel regions: levels, ancestors, team sizes, active levels,
   and max-active-levels (OMP_MAX_ACTIVE_LEVELS, omp_set_max_active_levels)
   making inner regions inactive.  */
/* ompc-nodes: 1 1x2 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int errors;

static void
check (int cond, const char *what)
{
  if (!cond)
    {
#pragma omp atomic
      errors++;
      fprintf (stderr, "failed: %s\n", what);
    }
}

int
main (void)
{
  /* Default: one active level, inner regions get one thread.  */
  check (omp_get_max_active_levels () == 1, "default max-active-levels 1");
#pragma omp parallel num_threads(2)
  {
    int outer = omp_get_thread_num ();
#pragma omp parallel num_threads(3)
    {
      check (omp_get_num_threads () == 1, "inactive inner region");
      check (omp_get_level () == 2, "level 2");
      check (omp_get_active_level () == 1, "active level 1");
      check (omp_get_ancestor_thread_num (1) == outer, "ancestor 1");
      check (omp_get_team_size (1) == 2, "team size 1");
    }
  }

  omp_set_max_active_levels (2);
  int count = 0;
  for (int r = 0; r < 20; r++)
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num ();
#pragma omp parallel num_threads(3)
      {
#pragma omp atomic
	count++;
	check (omp_get_num_threads () == 3, "active inner region");
	check (omp_get_level () == 2 && omp_get_active_level () == 2,
	       "levels");
	check (omp_get_ancestor_thread_num (1) == outer, "ancestor");
	check (omp_get_ancestor_thread_num (0) == 0, "ancestor 0");
	check (omp_get_ancestor_thread_num (3) == -1, "ancestor too deep");
	check (omp_get_team_size (2) == 3 && omp_get_team_size (1) == 2
	       && omp_get_team_size (0) == 1, "team sizes");
#pragma omp barrier
#pragma omp parallel num_threads(2)
	check (omp_get_num_threads () == 1, "third level inactive");
      }
    }
  check (count == 20 * 6, "all inner threads ran");
  return errors != 0;
}

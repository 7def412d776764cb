/* What the threads of a region inherit from their master besides the
   ICVs reach the other nodes too: the default allocator (a user-defined
   one, whose traits every node must see) and the league of a host teams
   construct (omp_get_num_teams, omp_get_team_num).  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

static int bad;

int
main (void)
{
  omp_alloctrait_t traits[] = { { omp_atk_alignment, 128 } };
  omp_allocator_handle_t a
    = omp_init_allocator (omp_default_mem_space, 1, traits);
  if (a == omp_null_allocator)
    return 2;
  omp_set_default_allocator (a);
  int x = 42;
#pragma omp parallel firstprivate(x) allocate(x)
  {
    if (omp_get_default_allocator () != a)
      {
#pragma omp atomic
	bad++;
      }
    if (((uintptr_t) &x & 127) != 0 || x != 42)
      {
#pragma omp atomic
	bad++;
      }
    void *p = omp_alloc (24, omp_null_allocator);
    if (p == NULL || ((uintptr_t) p & 127) != 0)
      {
#pragma omp atomic
	bad++;
      }
    omp_free (p, omp_null_allocator);
  }
  omp_set_default_allocator (omp_default_mem_alloc);
  if (bad)
    {
      printf ("%d threads did not get the default allocator\n", bad);
      return 1;
    }
#pragma omp teams num_teams(3)
  {
    int team = omp_get_team_num ();
#pragma omp parallel
    if (omp_get_num_teams () != 3 || omp_get_team_num () != team)
      {
#pragma omp atomic
	bad++;
      }
  }
  if (bad)
    {
      printf ("%d threads saw the wrong league\n", bad);
      return 1;
    }
  omp_destroy_allocator (a);
  printf ("OK\n");
  return 0;
}

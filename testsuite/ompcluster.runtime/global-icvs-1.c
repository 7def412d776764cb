/* The device's global ICVs that the initial thread changes
   (omp_set_affinity_format, omp_set_num_teams,
   omp_set_teams_thread_limit) are seen by every thread of later parallel
   regions, on every node: omp_get_affinity_format, omp_capture_affinity
   with the default format, omp_get_max_teams and
   omp_get_teams_thread_limit.  A second change is seen too, and a region
   after one that changed nothing still sees it.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-output: ^global icvs ok$ */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define MAXT 64

static char seen[MAXT][64], captured[MAXT][64];
static int teams[MAXT], limit[MAXT];

/* Sets the ICVs to FMT, NTEAMS and TL when SET, and checks what every
   thread of a region sees.  */
static int
round_check (const char *fmt, int nteams, int tl, int set)
{
  int bad = 0, n = 0;
  if (set)
    {
      omp_set_affinity_format (fmt);
      omp_set_num_teams (nteams);
      omp_set_teams_thread_limit (tl);
    }
#pragma omp parallel
  {
    int i = omp_get_thread_num ();
    if (i < MAXT)
      {
	omp_get_affinity_format (seen[i], sizeof seen[i]);
	omp_capture_affinity (captured[i], sizeof captured[i], NULL);
	teams[i] = omp_get_max_teams ();
	limit[i] = omp_get_teams_thread_limit ();
      }
#pragma omp single
    n = omp_get_num_threads ();
  }
  for (int i = 0; i < n && i < MAXT; i++)
    {
      /* FMT with its one %n replaced by the thread's number.  */
      char want[64];
      const char *p = strstr (fmt, "%n");
      snprintf (want, sizeof want, "%.*s%d%s", (int) (p - fmt), fmt, i,
		p + 2);
      if (strcmp (seen[i], fmt) != 0 || strcmp (captured[i], want) != 0
	  || teams[i] != nteams || limit[i] != tl)
	{
	  printf ("thread %d of %d: format '%s' (captured '%s'), max teams "
		  "%d, teams thread limit %d; expected '%s' ('%s'), %d, %d\n",
		  i, n, seen[i], captured[i], teams[i], limit[i], fmt, want,
		  nteams, tl);
	  bad = 1;
	}
    }
  return bad;
}

int
main (void)
{
  int bad = round_check ("global-icvs thread=%n", 3, 5, 1);
  bad |= round_check ("second format %n.", 7, 2, 1);
  bad |= round_check ("second format %n.", 7, 2, 0);
  bad |= round_check ("second format %n.", 7, 2, 0);
  if (bad)
    return 1;
  printf ("global icvs ok\n");
  return 0;
}

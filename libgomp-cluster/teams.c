/* teams.c -- the teams construct on the host (OpenMP 5.1, section 2.7):
   GOMP_teams_reg for a teams region outside target, GOMP_teams4 (and the
   older GOMP_teams) inside a target region that runs on the host, and the
   team-number queries and teams ICVs (nteams-var, teams-thread-limit-var).

   On the host the league's initial threads are one thread: the teams run
   one after the other, each with its own team number.  */

#include "task.h"
#include "omp.h"
#include <limits.h>

/* nteams-var and teams-thread-limit-var (OMP_NUM_TEAMS,
   OMP_TEAMS_THREAD_LIMIT; 0: not set).  */
int gomp_nteams_var;
int gomp_teams_thread_limit_var;

/* The calling thread's league: omp_get_num_teams () - 1, and its team.  */
__thread unsigned gomp_num_teams_m1 __attribute__ ((tls_model ("initial-exec")));
__thread unsigned gomp_team_num __attribute__ ((tls_model ("initial-exec")));

static unsigned
gomp_teams_set_limit (unsigned thread_limit)
{
  struct gomp_task_icv *icv = gomp_icv_write ();
  unsigned old = icv->thread_limit_var;
  icv->thread_limit_var = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
  return old;
}

GOMP_EXPORT void
GOMP_teams_reg (void (*fn) (void *), void *data, unsigned num_teams,
		unsigned thread_limit, unsigned flags)
{
  unsigned old_limit = 0;
  if (thread_limit == 0)
    thread_limit = gomp_teams_thread_limit_var;
  if (thread_limit)
    old_limit = gomp_teams_set_limit (thread_limit);
  /* Without num_teams the number is ours to choose: one team per host.  */
  if (num_teams == 0)
    num_teams = gomp_nteams_var > 0 ? gomp_nteams_var : 1;
  gomp_num_teams_m1 = num_teams - 1;
  for (gomp_team_num = 0; gomp_team_num < num_teams; gomp_team_num++)
    fn (data);
  gomp_num_teams_m1 = 0;
  gomp_team_num = 0;
  if (thread_limit)
    gomp_icv_write ()->thread_limit_var = old_limit;
}

/* Inside a target region: GCC calls it with FIRST true, then again after
   each team's body until it returns false.  */
GOMP_EXPORT bool
GOMP_teams4 (unsigned num_teams_low, unsigned num_teams_high,
	     unsigned thread_limit, bool first)
{
  if (first)
    {
      if (thread_limit)
	gomp_teams_set_limit (thread_limit);
      gomp_num_teams_m1 = num_teams_low ? num_teams_low - 1 : 0;
      gomp_team_num = 0;
      return true;
    }
  if (gomp_team_num == gomp_num_teams_m1)
    return false;
  gomp_team_num++;
  return true;
}

GOMP_EXPORT void
GOMP_teams (unsigned num_teams, unsigned thread_limit)
{
  if (thread_limit)
    gomp_teams_set_limit (thread_limit);
}

GOMP_EXPORT int
omp_get_num_teams (void)
{
  return gomp_num_teams_m1 + 1;
}

GOMP_EXPORT int
omp_get_team_num (void)
{
  return gomp_team_num;
}

GOMP_EXPORT void
omp_set_num_teams (int num_teams)
{
  if (num_teams >= 0)
    {
      gomp_nteams_var = num_teams;
      __atomic_add_fetch (&gomp_global_icvs_gen, 1, __ATOMIC_RELEASE);
    }
}

GOMP_EXPORT int
omp_get_max_teams (void)
{
  return gomp_nteams_var;
}

GOMP_EXPORT void
omp_set_teams_thread_limit (int thread_limit)
{
  if (thread_limit >= 0)
    {
      gomp_teams_thread_limit_var = thread_limit;
      __atomic_add_fetch (&gomp_global_icvs_gen, 1, __ATOMIC_RELEASE);
    }
}

GOMP_EXPORT int
omp_get_teams_thread_limit (void)
{
  return gomp_teams_thread_limit_var;
}

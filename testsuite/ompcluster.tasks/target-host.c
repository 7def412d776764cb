/* target constructs without devices run on the host: map clauses, target
   data/update/enter/exit, nowait with depend, teams on the host and in
   target, the device memory routines, a target region as a new initial
   thread inside a parallel region.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-options: -foffload=disable */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int
main (void)
{
  CHECK (omp_get_num_devices () == 0);
  CHECK (omp_is_initial_device ());
  CHECK (omp_get_initial_device () == omp_get_device_num ());
  int host = omp_get_initial_device ();

  int a[100], sum = 0, fp = 7;
  for (int i = 0; i < 100; i++)
    a[i] = i;
  #pragma omp target map(to: a) map(tofrom: sum) firstprivate(fp)
  {
    CHECK (omp_is_initial_device ());
    for (int i = 0; i < 100; i++)
      sum += a[i];
    fp++;
  }
  CHECK (sum == 4950 && fp == 7);

  #pragma omp target data map(tofrom: a)
  {
    #pragma omp target update to(a)
    #pragma omp target
    a[0] = 42;
  }
  #pragma omp target enter data map(to: a)
  #pragma omp target exit data map(from: a)
  CHECK (a[0] == 42);

  /* nowait target tasks with dependences.  */
  int x = 0, y = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: x) shared(x)
    x = 1;
    #pragma omp target map(tofrom: x) nowait depend(inout: x)
    x++;
    #pragma omp task depend(in: x) shared(x, y)
    y = x;
    #pragma omp taskwait
  }
  CHECK (x == 2 && y == 2);

  /* A target region inside a parallel region is a new initial thread.  */
  int lvl = -1, nthr = -1, inner = 0;
  #pragma omp parallel num_threads(2)
  #pragma omp master
  {
    #pragma omp target map(from: lvl, nthr, inner)
    {
      lvl = omp_get_level ();
      nthr = omp_get_num_threads ();
      #pragma omp parallel num_threads(2) reduction(+: inner)
      inner++;
    }
  }
  CHECK (lvl == 0 && nthr == 1 && inner >= 1);

  /* teams on the host.  */
  int teams = 0, nums = 0;
  int wrong = 0;
  #pragma omp teams num_teams(3) reduction(+: teams, nums, wrong)
  #pragma omp parallel num_threads(2) reduction(+: teams, nums, wrong)
  {
    if (omp_get_thread_num () == 0)
      {
	teams++;
	nums += omp_get_team_num ();
      }
    wrong += omp_get_num_teams () != 3;
  }
  CHECK (teams == 3 && nums == 3 && wrong == 0);
  CHECK (omp_get_num_teams () == 1 && omp_get_team_num () == 0);
  int tt = 0, lim = 0;
  #pragma omp target teams num_teams(2) thread_limit(3) map(tofrom: tt, lim) reduction(+: tt, lim)
  #pragma omp parallel num_threads(1)
  {
    tt += 1 + omp_get_team_num ();
    lim += omp_get_thread_limit ();
  }
  CHECK (tt == 3 && lim == 6);
  int dist[40] = { 0 };
  #pragma omp target teams distribute parallel for map(tofrom: dist)
  for (int i = 0; i < 40; i++)
    dist[i] = i * 2;
  for (int i = 0; i < 40; i++)
    CHECK (dist[i] == i * 2);

  /* Device memory routines on the host device.  */
  int *d = omp_target_alloc (100 * sizeof (int), host);
  CHECK (d != NULL);
  CHECK (omp_target_memcpy (d, a, 100 * sizeof (int), 0, 0, host, host) == 0);
  CHECK (d[0] == 42 && d[99] == 99);
  CHECK (omp_target_is_present (a, host));
  CHECK (omp_target_alloc (16, host + 1) == NULL);
  CHECK (omp_target_memcpy (d, a, 4, 0, 0, host + 1, host) != 0);
  int m[4][5], n[4][5];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      m[i][j] = 10 * i + j, n[i][j] = 0;
  size_t vol[2] = { 2, 3 }, doff[2] = { 1, 1 }, soff[2] = { 2, 2 };
  size_t dims[2] = { 4, 5 };
  CHECK (omp_target_memcpy_rect (NULL, NULL, 0, 0, NULL, NULL, NULL, NULL,
				 NULL, host, host) > 2);
  CHECK (omp_target_memcpy_rect (n, m, sizeof (int), 2, vol, doff, soff,
				 dims, dims, host, host) == 0);
  CHECK (n[1][1] == 22 && n[1][3] == 24 && n[2][1] == 32 && n[0][0] == 0
	 && n[3][1] == 0 && n[1][4] == 0);
  CHECK (omp_target_associate_ptr (a, d, 4, 0, host) != 0);
  omp_target_free (d, host);
  return bad;
}

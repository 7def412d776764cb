/* Task reductions: taskgroup task_reduction with in_reduction tasks
   (scalars, arrays, user-defined), nested taskgroups, the task modifier
   on parallel, for and sections reductions.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

struct pt { long x, y; };
#pragma omp declare reduction (ptadd : struct pt : omp_out.x += omp_in.x, omp_out.y += omp_in.y) initializer (omp_priv = { 0, 0 })

int
main (void)
{
  long s = 0, arr[4] = { 0 }, mul = 1;
  struct pt p = { 0, 0 };
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskgroup task_reduction(+: s, arr) task_reduction(*: mul) task_reduction(ptadd: p)
    {
      for (int i = 0; i < 200; i++)
	{
	  #pragma omp task in_reduction(+: s, arr) in_reduction(ptadd: p) firstprivate(i)
	  {
	    s += i;
	    arr[i % 4] += 1;
	    p.x += 1;
	    p.y += i;
	  }
	}
      for (int i = 0; i < 10; i++)
	{
	  #pragma omp task in_reduction(*: mul)
	  mul *= 2;
	}
      /* A nested taskgroup with its own reduction; tasks in it may still
	 take part in the outer one.  */
      long t = 0;
      #pragma omp taskgroup task_reduction(+: t)
      {
	for (int i = 0; i < 50; i++)
	  {
	    #pragma omp task in_reduction(+: t, s)
	    {
	      t += 2;
	      s += 1;
	    }
	  }
      }
      CHECK (t == 100);
    }
  }
  CHECK (s == 19900 + 50);
  CHECK (arr[0] == 50 && arr[1] == 50 && arr[2] == 50 && arr[3] == 50);
  CHECK (mul == 1024);
  CHECK (p.x == 200 && p.y == 19900);

  /* reduction(task, ...) on parallel: the implicit tasks and their tasks
     contribute.  */
  long r = 0;
  #pragma omp parallel reduction(task, +: r)
  {
    r += 1;
    for (int i = 0; i < 20; i++)
      {
	#pragma omp task in_reduction(+: r)
	r += 10;
      }
  }
  CHECK (r == omp_get_max_threads () * 201L);

  /* ... on a worksharing loop and sections.  */
  long f = 0, g = 0;
  #pragma omp parallel
  {
    #pragma omp for reduction(task, +: f)
    for (int i = 0; i < 100; i++)
      {
	f += 1;
	#pragma omp task in_reduction(+: f)
	f += 2;
      }
    #pragma omp sections reduction(task, +: g)
    {
      #pragma omp section
      {
	#pragma omp task in_reduction(+: g)
	g += 5;
      }
      #pragma omp section
      g += 7;
    }
  }
  CHECK (f == 300 && g == 12);
  return bad;
}

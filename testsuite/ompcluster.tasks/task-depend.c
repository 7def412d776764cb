/* Task dependences: in/out/inout chains, mutexinoutset, depobj, taskwait
   depend, if(0) tasks with depend, dependences on array sections.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int
main (void)
{
  /* A chain of out tasks on one variable runs in creation order, even
     when earlier ones are slow.  */
  int x = 0, order[64], n = 0;
  #pragma omp parallel
  #pragma omp single
  {
    for (int i = 0; i < 64; i++)
      {
	#pragma omp task depend(inout: x) shared(x, order, n) firstprivate(i)
	{
	  if (i % 8 == 0)
	    usleep (200);
	  order[n++] = i;
	  x++;
	}
      }
    #pragma omp taskwait
  }
  CHECK (x == 64 && n == 64);
  for (int i = 0; i < 64; i++)
    CHECK (order[i] == i);

  /* in tasks wait for the out before them, and the next out waits for
     all of them.  */
  int a = 0, seen[16], after = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: a) shared(a)
    {
      usleep (1000);
      a = 1;
    }
    for (int i = 0; i < 16; i++)
      {
	#pragma omp task depend(in: a) shared(a, seen) firstprivate(i)
	{
	  usleep (100 * (i % 3));
	  seen[i] = a;
	}
      }
    #pragma omp task depend(out: a) shared(a)
    a = 2;
    #pragma omp task depend(in: a) shared(a, after)
    after = a;
    #pragma omp taskwait
  }
  for (int i = 0; i < 16; i++)
    CHECK (seen[i] == 1);
  CHECK (a == 2 && after == 2);

  /* mutexinoutset: never two at once, all after the out before them.  */
  int m = 0, inside = 0, overlap = 0, sum = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: m) shared(m)
    m = 10;
    for (int i = 0; i < 8; i++)
      {
	#pragma omp task depend(mutexinoutset: m) shared(m, inside, overlap)
	{
	  if (__atomic_add_fetch (&inside, 1, __ATOMIC_SEQ_CST) != 1)
	    overlap = 1;
	  usleep (100);
	  m++;
	  __atomic_sub_fetch (&inside, 1, __ATOMIC_SEQ_CST);
	}
      }
    #pragma omp task depend(in: m) shared(m, sum)
    sum = m;
    #pragma omp taskwait
  }
  CHECK (!overlap && sum == 18);

  /* depobj objects in a depend clause.  */
  int d = 0, dr = 0;
  omp_depend_t obj_out, obj_in;
  #pragma omp depobj(obj_out) depend(out: d)
  #pragma omp depobj(obj_in) depend(in: d)
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(depobj: obj_out) shared(d)
    {
      usleep (1000);
      d = 5;
    }
    #pragma omp task depend(depobj: obj_in) shared(d, dr)
    dr = d;
    #pragma omp taskwait
  }
  #pragma omp depobj(obj_out) destroy
  #pragma omp depobj(obj_in) destroy
  CHECK (dr == 5);

  /* taskwait depend waits for the conflicting siblings only; an if(0)
     task with depend waits for its predecessors.  */
  int p = 0, q = 0, r = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: p) shared(p)
    {
      usleep (2000);
      p = 1;
    }
    #pragma omp task depend(out: q) shared(q)
    {
      usleep (2000);
      q = 1;
    }
    #pragma omp taskwait depend(in: p)
    CHECK (p == 1);
    #pragma omp task if(0) depend(in: q) shared(q, r)
    r = q;
    CHECK (r == 1);
    #pragma omp taskwait
  }

  /* Array sections name their first element.  */
  int arr[100] = { 0 }, total = 0;
  #pragma omp parallel
  #pragma omp single
  {
    for (int i = 0; i < 10; i++)
      {
	#pragma omp task depend(out: arr[i * 10:10]) firstprivate(i) shared(arr)
	for (int j = 0; j < 10; j++)
	  arr[i * 10 + j] = i;
      }
    for (int i = 0; i < 10; i++)
      {
	#pragma omp task depend(in: arr[i * 10:10]) firstprivate(i) shared(arr, total)
	{
	  int s = 0;
	  for (int j = 0; j < 10; j++)
	    s += arr[i * 10 + j];
	  #pragma omp atomic
	  total += s;
	}
      }
  }
  CHECK (total == 450);
  return bad;
}

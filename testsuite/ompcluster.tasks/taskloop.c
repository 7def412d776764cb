/* taskloop: grainsize, num_tasks (strict too), nogroup, reduction,
   in_reduction, lastprivate, collapse, unsigned long long bounds, negative
   steps, if(0) and final.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

static int hits[1000];

int
main (void)
{
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskloop grainsize(7)
    for (int i = 0; i < 1000; i++)
      hits[i]++;
    #pragma omp taskloop num_tasks(13)
    for (int i = 999; i >= 0; i -= 3)
      hits[i]++;
    long sum = 0;
    #pragma omp taskloop reduction(+: sum) grainsize(strict: 10)
    for (long i = 0; i < 1000; i++)
      sum += i;
    CHECK (sum == 499500);
    int last = -1;
    #pragma omp taskloop lastprivate(last)
    for (int i = 0; i < 100; i++)
      last = i;
    CHECK (last == 99);
    unsigned long long ucount = 0;
    #pragma omp taskloop reduction(+: ucount)
    for (unsigned long long u = 1ull << 40; u < (1ull << 40) + 500; u += 2)
      ucount++;
    CHECK (ucount == 250);
    int c2 = 0;
    #pragma omp taskloop collapse(2) reduction(+: c2) num_tasks(5)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 7; j++)
	c2 += i * j;
    CHECK (c2 == 45 * 21);
    int n0 = 0;
    #pragma omp taskloop if(0) reduction(+: n0)
    for (int i = 0; i < 50; i++)
      n0++;
    CHECK (n0 == 50);
    int nf = 0;
    #pragma omp taskloop final(1) reduction(+: nf)
    for (int i = 0; i < 50; i++)
      nf += omp_in_final ();
    CHECK (nf == 50);
    int empty = 0;
    #pragma omp taskloop shared(empty)
    for (int i = 5; i < 5; i++)
      empty = 1;
    CHECK (empty == 0);
    /* nogroup: the tasks are children of the encountering task.  */
    int ng = 0;
    #pragma omp taskloop nogroup shared(ng)
    for (int i = 0; i < 40; i++)
      {
	#pragma omp atomic
	ng++;
      }
    #pragma omp taskwait
    CHECK (ng == 40);
    /* in_reduction inside a taskgroup's task_reduction.  */
    int tr = 0;
    #pragma omp taskgroup task_reduction(+: tr)
    {
      #pragma omp taskloop in_reduction(+: tr) nogroup
      for (int i = 0; i < 100; i++)
	tr += 2;
      #pragma omp task in_reduction(+: tr)
      tr += 1;
    }
    CHECK (tr == 201);
  }
  for (int i = 0; i < 1000; i++)
    CHECK (hits[i] == 1 + (i % 3 == 0));
  return bad;
}

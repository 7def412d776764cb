/* Doacross loops (ordered depend(sink/source)): 1 and 2 ordered loops,
   static/dynamic/guided schedules, unsigned long long iterations.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

#define N 2000
static long a[N];
static int b[64][64];

int
main (void)
{
  /* a[i] = a[i-1] + 1 through depend(sink: i-1).  */
  a[0] = 0;
  #pragma omp parallel for ordered(1) schedule(static, 3)
  for (int i = 1; i < N; i++)
    {
      #pragma omp ordered depend(sink: i - 1)
      a[i] = a[i - 1] + 1;
      #pragma omp ordered depend(source)
    }
  for (int i = 0; i < N; i++)
    CHECK (a[i] == i);

  /* The same with a dynamic schedule and a stride of 2 in the sink.  */
  for (int i = 0; i < N; i++)
    a[i] = 0;
  #pragma omp parallel for ordered(1) schedule(dynamic, 5)
  for (int i = 0; i < N; i++)
    {
      #pragma omp ordered depend(sink: i - 2)
      a[i] = (i >= 2 ? a[i - 2] : 0) + 1;
      #pragma omp ordered depend(source)
    }
  for (int i = 0; i < N; i++)
    CHECK (a[i] == i / 2 + 1);

  /* Two ordered loops: a wavefront.  */
  #pragma omp parallel for ordered(2) schedule(guided)
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      {
	#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
	b[i][j] = (i ? b[i - 1][j] : 0) + (j ? b[i][j - 1] : 0) + 1;
	#pragma omp ordered depend(source)
      }
  /* b[i][j] = C(i+j+2, i+1) - 1.  */
  CHECK (b[0][0] == 1 && b[1][1] == 5 && b[2][3] == 34);

  /* unsigned long long iterations.  */
  unsigned long long base = 1ull << 40;
  for (int i = 0; i < N; i++)
    a[i] = 0;
  #pragma omp parallel for ordered(1)
  for (unsigned long long u = base; u < base + N; u++)
    {
      #pragma omp ordered depend(sink: u - 1)
      a[u - base] = (u > base ? a[u - base - 1] : 0) + 2;
      #pragma omp ordered depend(source)
    }
  CHECK (a[N - 1] == 2 * N);
  return bad;
}

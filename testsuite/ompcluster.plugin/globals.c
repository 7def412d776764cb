/* Globals, static locals, compound literals and the variable behind
   critical(NAME) live in the shared segment; TLS, const data, string
   literals and user-section variables stay out; values are as in a plain
   gcc -fopenmp build, at one node and across nodes.
   ompc-nodes: 1 1x2 1x4 2x1 2x2
   ompc-timeout: 60  */

#include <stdio.h>
#include <stdlib.h>

extern char __ompc_shared_start[] __attribute__ ((weak));
extern char __ompc_shared_end[] __attribute__ ((weak));

int counts[64];				/* zero: NOBITS part */
double scale = 2.5;			/* initialised: PROGBITS part */
static long file_static = 7;
int *lit = (int[]) { 1, 2, 3 };		/* compound literal */
char zeros[1 << 20];			/* large zero array */
_Thread_local int tls = 3;
const int konst = 11;
const char *str = "literal";
int in_user_section __attribute__ ((section (".data.user"))) = 5;
int threadprivate_var = 9;
#pragma omp threadprivate (threadprivate_var)

static int errors;

static int
inside (const void *p)
{
  return (const char *) p >= __ompc_shared_start
	 && (const char *) p < __ompc_shared_end;
}

static void
expect_where (const char *what, const void *p, int shared)
{
  if (inside (p) != shared)
    {
      printf ("%s at %p is %s the shared segment [%p, %p)\n", what, p,
	      shared ? "outside" : "inside", (void *) __ompc_shared_start,
	      (void *) __ompc_shared_end);
      errors++;
    }
}

static int *
counter (void)
{
  static int calls;			/* static local */
  return &calls;
}

int
main (void)
{
  if (!__ompc_shared_start || !__ompc_shared_end
      || ((unsigned long) __ompc_shared_start & 4095)
      || ((unsigned long) __ompc_shared_end & 4095))
    {
      printf ("bad shared segment bounds %p %p\n",
	      (void *) __ompc_shared_start, (void *) __ompc_shared_end);
      return 1;
    }
  expect_where ("counts", counts, 1);
  expect_where ("scale", &scale, 1);
  expect_where ("file_static", &file_static, 1);
  expect_where ("lit", &lit, 1);
  expect_where ("compound literal", lit, 1);
  expect_where ("zeros", zeros, 1);
  expect_where ("static local", counter (), 1);
  expect_where ("tls", &tls, 0);
  expect_where ("threadprivate", &threadprivate_var, 0);
  expect_where ("konst", &konst, 0);
  expect_where ("string literal", str, 0);
  expect_where ("user section", &in_user_section, 0);

  int n = 0;
#pragma omp parallel reduction(+ : n)
  {
#pragma omp critical(update)
    {
      counts[0]++;
      (*counter ())++;
      lit[1] += 10;
      file_static += 2;
      zeros[sizeof zeros - 1]++;
    }
    threadprivate_var = 1;
    n++;
  }
  if (counts[0] != n || *counter () != n || lit[1] != 2 + 10 * n
      || file_static != 7 + 2 * n || zeros[sizeof zeros - 1] != n
      || scale != 2.5 || tls != 3 || konst != 11 || in_user_section != 5)
    {
      printf ("wrong values: n=%d counts=%d calls=%d lit=%d static=%ld\n", n,
	      counts[0], *counter (), lit[1], file_static);
      errors++;
    }
  return errors != 0;
}

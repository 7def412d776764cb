/* A nested function whose address is taken inside a parallel region runs
   through a trampoline that GCC writes on the stack of the thread (GCC's
   pr52547.c): every thread stack, rank 0's main's too, lives in the
   shared segment, which must then be executable, as glibc makes its own
   stacks for such a program (GCC marks it with an executable
   PT_GNU_STACK).  Without that the first call faulted for ever.
   ompc-nodes: 1 1x2 2x1 2x2
   ompc-check: readelf -lW %exe | grep -E 'GNU_STACK.* RWE'
   ompc-timeout: 60  */

#include <omp.h>
#include <stdio.h>

static int __attribute__ ((noinline, noclone))
call (int *x, int (*fn) (int *))
{
  return fn (x);
}

static int __attribute__ ((noinline, noclone))
run (int n, int *base)
{
  int errors = 0;
#pragma omp parallel for reduction(+ : errors)
  for (int i = 0; i < n; i++)
    {
      int offset (int *p) { return p - base; }
      if (call (&base[i], offset) != i)
	errors++;
    }
  return errors;
}

int
main (void)
{
  int a[256];
  int scale = 3;
  int scaled (int *p) { return *p * scale; }
  for (int i = 0; i < 256; i++)
    a[i] = i;
  /* On main's stack (shared at several nodes), then on every thread's.  */
  int errors = call (&a[7], scaled) != 21;
  errors += run (256, a);
  if (errors)
    {
      printf ("%d errors\n", errors);
      return 1;
    }
  puts ("OK");
  return 0;
}

/* stdout stays buffered on every node: MPICH's start leaves it
   unbuffered (a write(2) per printf, which made a program printing a
   million numbers 40 times slower at 2 nodes), and the runtime makes it
   line-buffered again.  The output must still be whole: lines printed
   by the serial code, lines of every thread of every node inside a
   region, and a last line without a newline on each side, which the
   end of the program flushes.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-output: stdout buffered: yes
   ompc-output: numbers 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n
   ompc-output: thread 0 says hello
   ompc-output: thread 1 says hello
   ompc-output: last words of thread 1
   ompc-output: serial end  */

#include <omp.h>
#include <stdio.h>
#include <stdio_ext.h>

int
main (void)
{
  /* glibc allocates the buffer at the first output.  */
  printf ("start\n");
  size_t size = __fbufsize (stdout);
  printf ("stdout buffered: %s (%zu bytes)\n", size > 1 ? "yes" : "no", size);
  printf ("numbers");
  for (int i = 0; i < 20; i++)
    printf (" %d", i);
  printf ("\n");
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+:n)
  {
    int t = omp_get_thread_num ();
    printf ("thread %d says hello\n", t);
    n++;
#pragma omp barrier
    if (t == 1)
      printf ("last words of thread %d", t);
  }
  printf ("\nserial end");
  return n != 2;
}

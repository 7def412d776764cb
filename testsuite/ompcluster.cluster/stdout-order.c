/* Output in the program's order across nodes (OMPC_ORDERED_OUTPUT, on by
   default): lines printed inside an ordered loop, and inside a critical
   section in the order of a shared counter, come out in that order
   whichever node printed them (as with one process; the launcher alone
   merges the ranks' lines as they arrive); a long run of lines with no
   release in between is whole and ahead of what follows the barrier
   after it; the output of a child process (system) comes in its turn
   too.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-output: (?n)^o0\no1\no2\no3\no4\no5\no6\no7\no8$
   ompc-output: (?n)^o8\no9\no10\no11\no12\no13\no14\no15\no16$
   ompc-output: (?n)^o16\no17\no18\no19\no20\no21\no22\no23\no24$
   ompc-output: (?n)^o24\no25\no26\no27\no28\no29\no30\no31\no32$
   ompc-output: (?n)^o32\no33\no34\no35\no36\no37\no38\no39$
   ompc-output: (?n)^c0\nc1\nc2\nc3\nc4\nc5\nc6\nc7\nc8$
   ompc-output: (?n)^c8\nc9\nc10\nc11\nc12\nc13\nc14\nc15\nc16$
   ompc-output: (?n)^c16\nc17\nc18\nc19\nc20\nc21\nc22\nc23$
   ompc-output: (?n)^burst 2999\nafter burst$
   ompc-output: (?n)^child 0\nchild 1\nchild 2\nchild 3\nafter children$
   ompc-output: (?n)^end$
   ompc-timeout: 120  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
  int seq = 0;
#pragma omp parallel
  {
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 40; i++)
      {
#pragma omp ordered
	printf ("o%d\n", i);
      }
#pragma omp for schedule(static, 1)
    for (int i = 0; i < 24; i++)
      {
#pragma omp critical
	printf ("c%d\n", seq++);
      }
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      for (int i = 0; i < 3000; i++)
	printf ("burst %d\n", i);
#pragma omp barrier
#pragma omp single
    printf ("after burst\n");
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 4; i++)
      {
#pragma omp ordered
	{
	  char cmd[32];
	  snprintf (cmd, sizeof cmd, "echo child %d", i);
	  fflush (stdout);
	  if (system (cmd) != 0)
	    abort ();
	}
      }
#pragma omp single
    printf ("after children\n");
  }
  printf ("end\n");
  return 0;
}

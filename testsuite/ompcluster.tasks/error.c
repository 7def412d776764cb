/* The error directive at execution time: a warning goes on, a fatal error
   ends the program with GCC's message.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 */
/* ompc-exit: 1 */
/* ompc-output: libgomp: error directive encountered: careful */
/* ompc-output: libgomp: fatal error: error directive encountered: the end */
/* ompc-no-output: not reached */
#include <stdio.h>

int
main (void)
{
  #pragma omp error at(execution) severity(warning) message("careful")
  const char *msg = "the end";
  #pragma omp error at(execution) severity(fatal) message(msg)
  printf ("not reached\n");
  return 0;
}

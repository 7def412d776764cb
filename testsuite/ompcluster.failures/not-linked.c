/* A program compiled with the plugin but linked by plain gcc, without the
   linker fragment that gathers its globals: started on several nodes it
   refuses to run, once, saying how to link it.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-run: %build/bin/ompcc -c %src -o %exe.o && gcc -fopenmp %exe.o -o %exe.nold -L%build/lib -Wl,-rpath,%build/lib -Wl,--disable-new-dtags || exit 99; OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes %exe.nold; st=$?; rm -f %exe.o %exe.nold; exit $st */
/* ompc-exit: 1 */
/* ompc-output: linked without the ompcluster linker fragment */
/* ompc-output: link it with ompcc */
/* ompc-no-output: ran with */
/* ompc-no-output: linker fragment(.|\n)*linker fragment */
/* ompc-within: 15 */
/* ompc-timeout: 30 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}

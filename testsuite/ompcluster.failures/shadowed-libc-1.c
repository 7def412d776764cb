/* shadowed-libc.c's program on one node: its own read() and write()
   never stand in for anything, and it runs as with GCC's libgomp.  */
/* ompc-nodes: 1 1x2 */
/* ompc-output: sum=4950 */
/* ompc-no-output: the program's (read|write) ran */
/* ompc-timeout: 20 */
#include "shadowed-libc.c"

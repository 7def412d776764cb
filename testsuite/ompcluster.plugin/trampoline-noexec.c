/* The same trampolines in a program linked with -z noexecstack: glibc
   would give its stacks no execute permission either (a plain run dies of
   SIGSEGV), and across nodes the DSM must not take the instruction fetch
   for a page fault for ever: it ends the job with a message.
   ompc-nodes: 2x1
   ompc-options: -Wl,-z,noexecstack
   ompc-exit: 134
   ompc-output: not supported: code executed from the shared segment \(a nested function's trampoline
   ompc-no-output: OK
   ompc-timeout: 60  */

#include "trampoline.c"

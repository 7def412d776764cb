/* dsm-test.h -- what the DSM's own tests (dsm-unit.c, dsm-loopback.c)
   share: a stand-in for the plugin's globals region and the CHECK macro.
   dsm.exp compiles only the .c files of this folder; this header is
   included by them.  Before including it a test defines DSM_TEST_WHO (),
   which prints who fails (or nothing), and DSM_TEST_END (), which ends
   the test with a non-zero status.  */

#ifndef DSM_TEST_H
#define DSM_TEST_H 1

#include <stdio.h>

/* A stand-in for the plugin's region: page aligned, initialised data.  */
static char globals[4 * 4096] __attribute__ ((aligned (4096))) = "hello";
asm (".globl __ompc_shared_start\n.set __ompc_shared_start, globals\n"
     ".globl __ompc_shared_end\n.set __ompc_shared_end, globals+16384");

/* Ends the test with a message when C is false.  */
#define CHECK(c, ...)							\
  do {									\
    if (!(c))								\
      {									\
	DSM_TEST_WHO ();						\
	fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__);		\
	fprintf (stderr, __VA_ARGS__);					\
	fputc ('\n', stderr);						\
	DSM_TEST_END ();						\
      }									\
  } while (0)

#endif

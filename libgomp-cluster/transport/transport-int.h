/* transport-int.h -- what the files of transport/ share and nothing above
   the transport uses.  */

#ifndef OMPC_TRANSPORT_INT_H
#define OMPC_TRANSPORT_INT_H 1

#include "transport.h"

/* cpu.c: counts the processors this process may use and opens
   /proc/loadavg for gomp_cl_processor_free; once, before the service
   thread starts.  */
extern void gomp_cl_processor_free_init (void)
  __attribute__ ((visibility ("hidden")));

#endif /* OMPC_TRANSPORT_INT_H */

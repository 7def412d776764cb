/* weak-strong.c -- linked with the runtime's stubs.o and error.o and with
   libgomp.map into a small library (abi.exp does it): a strong definition
   of one entry point must replace its weak stub, and an entry point that
   only has its stub must stop the program through the runtime's real
   error path.  This file stands in for the rest of the runtime: one
   implemented entry point, and what error.c needs (the thread number,
   the cluster pointer, NULL for one node, and the launcher's view: a
   job of one process).  */

__attribute__ ((visibility ("hidden"))) void *gomp_cluster;

__attribute__ ((visibility ("hidden"))) int
gomp_launcher_size (void)
{
  return 1;
}

__attribute__ ((visibility ("hidden"))) int
gomp_launcher_rank (void)
{
  return -1;
}

__attribute__ ((visibility ("default"))) int
omp_get_num_procs (void)
{
  return 4242;
}

__attribute__ ((visibility ("default"))) int
omp_get_thread_num (void)
{
  return 0;
}

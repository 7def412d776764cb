/* read, pread, readv and preadv into shared memory: a fresh malloc'ed
   buffer, a global array and main's stack array, first never touched,
   then written last by another node (protected on the node that reads);
   every thread also preads its part of the file into a shared buffer,
   and every thread checks every byte.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: read ok  */

#include "common.h"
#include <fcntl.h>
#include <omp.h>
#include <sys/uio.h>

#define LEN 1000000
static unsigned char global_buf[LEN];

/* Every thread checks every byte of P against the file.  */
static void
check_all (const unsigned char *p, size_t len)
{
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  bad += !same_as_file (p, 0, len);
  CHECK (bad == 0);
}

/* The last thread (on the last node) writes P.  */
static void
scribble (unsigned char *p, size_t len)
{
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    memset (p, 0xa5, len);
}

static void
read_into (unsigned char *p)
{
  int fd = open (test_path, O_RDONLY);
  CHECK (fd >= 0);
  CHECK (read (fd, p, LEN) == LEN);
  CHECK (same_as_file (p, 0, LEN));
  check_all (p, LEN);
  scribble (p, LEN);
  CHECK (pread (fd, p, LEN, 0) == LEN);
  check_all (p, LEN);
  scribble (p, LEN);
  struct iovec iov[3] = { { p, 1000 }, { p + 1000, 500000 },
			  { p + 501000, LEN - 501000 } };
  CHECK (lseek (fd, 0, SEEK_SET) == 0);
  CHECK (readv (fd, iov, 3) == LEN);
  check_all (p, LEN);
  scribble (p, LEN);
  CHECK (preadv (fd, iov, 3, 0) == LEN);
  check_all (p, LEN);
  CHECK (close (fd) == 0);
}

int
main (void)
{
  unsigned char stack_buf[64 * 1024];
  make_file (LEN);

  unsigned char *heap = malloc (LEN);
  CHECK (heap != NULL);
  read_into (heap);
  read_into (global_buf);

  /* main's stack: a smaller read, the same steps.  */
  int fd = open (test_path, O_RDONLY);
  CHECK (fd >= 0);
  CHECK (read (fd, stack_buf, sizeof stack_buf) == sizeof stack_buf);
  check_all (stack_buf, sizeof stack_buf);
  scribble (stack_buf, sizeof stack_buf);
  CHECK (pread (fd, stack_buf, sizeof stack_buf, 0) == sizeof stack_buf);
  check_all (stack_buf, sizeof stack_buf);

  /* Every thread preads its part into a fresh buffer, on every node.  */
  unsigned char *parts = malloc (LEN);
  CHECK (parts != NULL);
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), n = omp_get_num_threads ();
    size_t lo = (size_t) LEN * t / n, hi = (size_t) LEN * (t + 1) / n;
    int f = open (test_path, O_RDONLY);
    bad += f < 0 || pread (f, parts + lo, hi - lo, lo) != (ssize_t) (hi - lo);
    if (f >= 0)
      close (f);
  }
  CHECK (bad == 0);
  check_all (parts, LEN);
  close (fd);
  remove_file ();
  free (heap);
  free (parts);
  printf ("read ok\n");
  return 0;
}

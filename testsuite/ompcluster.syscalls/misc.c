/* Small results stored into shared memory that another node wrote last
   (protected on the node of the call): stat, fstat, lstat into shared
   structs; pipe's descriptors into a shared int[2]; time, gettimeofday
   and clock_gettime (also a clock the vDSO does not serve); getrusage,
   uname, getcwd; recv on a socketpair into a shared buffer and send
   from one; pthread_create's thread id.  Calls come from rank 0's main
   and from a thread of the last node.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: misc ok  */

#include "common.h"
#include <omp.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>

static struct stat st_g;
static int fds_g[2];
static time_t t_g;
static struct timeval tv_g;
static struct timespec ts_g[2];
static struct rusage ru_g;
static struct utsname un_g;
static char cwd_g[4096];
static char msg_g[8192];
static pthread_t thread_g;
static int thread_ran;

static void *
thread_fn (void *arg)
{
  __atomic_store_n (&thread_ran, 1, __ATOMIC_RELEASE);
  return arg;
}

/* Another node (the last thread's) writes every global above.  */
static void
scribble (void)
{
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    {
      memset (&st_g, 1, sizeof st_g);
      memset (fds_g, 1, sizeof fds_g);
      memset (&t_g, 1, sizeof t_g);
      memset (&tv_g, 1, sizeof tv_g);
      memset (ts_g, 1, sizeof ts_g);
      memset (&ru_g, 1, sizeof ru_g);
      memset (&un_g, 1, sizeof un_g);
      memset (cwd_g, 1, sizeof cwd_g);
      memset (msg_g, 1, sizeof msg_g);
      memset (&thread_g, 1, sizeof thread_g);
    }
}

/* The calls; returns 0 when every result is right.  */
static int
calls (void)
{
  struct stat ref;
  CHECK (stat (test_path, &ref) == 0);
  CHECK (stat (test_path, &st_g) == 0 && st_g.st_ino == ref.st_ino
	 && st_g.st_size == 100);
  memset (&st_g, 0, sizeof st_g);
  CHECK (lstat (test_path, &st_g) == 0 && st_g.st_ino == ref.st_ino);
  FILE *f = fopen (test_path, "r");
  CHECK (f != NULL);
  memset (&st_g, 0, sizeof st_g);
  CHECK (fstat (fileno (f), &st_g) == 0 && st_g.st_ino == ref.st_ino);
  fclose (f);

  CHECK (pipe (fds_g) == 0 && fds_g[0] >= 0 && fds_g[1] >= 0);
  CHECK (write (fds_g[1], "abc", 3) == 3);
  char b[4] = { 0 };
  CHECK (read (fds_g[0], b, 3) == 3 && strcmp (b, "abc") == 0);
  close (fds_g[0]);
  close (fds_g[1]);

  time_t now = time (NULL);
  CHECK (time (&t_g) >= now && t_g < now + 100);
  CHECK (gettimeofday (&tv_g, NULL) == 0 && tv_g.tv_sec >= now
	 && tv_g.tv_usec < 1000000);
  CHECK (clock_gettime (CLOCK_REALTIME, &ts_g[0]) == 0
	 && ts_g[0].tv_sec >= now && ts_g[0].tv_nsec < 1000000000);
  CHECK (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts_g[1]) == 0
	 && ts_g[1].tv_nsec < 1000000000 && ts_g[1].tv_sec < 1000);
  CHECK (getrusage (RUSAGE_SELF, &ru_g) == 0 && ru_g.ru_maxrss > 0);
  CHECK (uname (&un_g) == 0 && strcmp (un_g.sysname, "Linux") == 0);
  CHECK (getcwd (cwd_g, sizeof cwd_g) == cwd_g && cwd_g[0] == '/');

  int sv[2];
  CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  char out[8192];
  for (size_t i = 0; i < sizeof out; i++)
    out[i] = (char) i;
  CHECK (send (sv[0], out, sizeof out, 0) == sizeof out);
  size_t got = 0;
  while (got < sizeof msg_g)
    {
      ssize_t r = recv (sv[1], msg_g + got, sizeof msg_g - got, 0);
      CHECK (r > 0);
      got += r;
    }
  CHECK (memcmp (msg_g, out, sizeof out) == 0);
  /* And back, from the shared buffer.  */
  CHECK (send (sv[1], msg_g, sizeof msg_g, 0) == sizeof msg_g);
  got = 0;
  while (got < sizeof out)
    {
      ssize_t r = recv (sv[0], out + got, sizeof out - got, 0);
      CHECK (r > 0);
      got += r;
    }
  CHECK (memcmp (msg_g, out, sizeof out) == 0);
  close (sv[0]);
  close (sv[1]);

  __atomic_store_n (&thread_ran, 0, __ATOMIC_RELEASE);
  void *ret;
  CHECK (pthread_create (&thread_g, NULL, thread_fn, &thread_g) == 0);
  CHECK (pthread_join (thread_g, &ret) == 0 && ret == &thread_g);
  CHECK (__atomic_load_n (&thread_ran, __ATOMIC_ACQUIRE) == 1);
  return 0;
}

int
main (void)
{
  make_file (100);
  scribble ();
  calls ();
  scribble ();
  /* The same calls on the last node; rank 0 then checks what it
     stored.  */
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    calls ();
  CHECK (st_g.st_size == 100 && t_g > 0 && cwd_g[0] == '/'
	 && strcmp (un_g.sysname, "Linux") == 0 && msg_g[100] == 100);
  remove_file ();
  printf ("misc ok\n");
  return 0;
}

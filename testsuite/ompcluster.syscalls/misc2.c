/* More small results stored into (or read from) shared memory that
   another node wrote last: poll's pollfd array, select's fd_sets,
   recvmsg and sendmsg with the msghdr, the iovec array and the data in
   shared memory, readlink, waitpid's status (a child started with
   posix_spawn), getrlimit, sigaction's old action, nanosleep's request.
   Calls come from rank 0's main and from a thread of the last node.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: misc2 ok  */

#include "common.h"
#include <omp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static struct pollfd pfd_g[2];
static fd_set rset_g;
static struct timeval tv_g;
static struct msghdr msg_g;
static struct iovec iov_g[2];
static char data_g[2][3000];
static char link_g[256];
static int status_g;
static struct rlimit rl_g;
static struct sigaction old_g;
static struct timespec req_g;

static void
scribble (void)
{
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    {
      memset (pfd_g, 0, sizeof pfd_g);
      memset (&rset_g, 0, sizeof rset_g);
      memset (&tv_g, 0, sizeof tv_g);
      memset (&msg_g, 0, sizeof msg_g);
      memset (iov_g, 0, sizeof iov_g);
      memset (data_g, 1, sizeof data_g);
      memset (link_g, 1, sizeof link_g);
      status_g = -1;
      memset (&rl_g, 1, sizeof rl_g);
      memset (&old_g, 1, sizeof old_g);
      req_g.tv_sec = 0;
      req_g.tv_nsec = 1000;
    }
}

static void
calls (void)
{
  int sv[2];
  CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  CHECK (write (sv[0], "x", 1) == 1);
  pfd_g[0].fd = sv[1];
  pfd_g[0].events = POLLIN;
  pfd_g[1].fd = sv[0];
  pfd_g[1].events = POLLOUT;
  CHECK (poll (pfd_g, 2, 1000) == 2 && (pfd_g[0].revents & POLLIN)
	 && (pfd_g[1].revents & POLLOUT));
  FD_ZERO (&rset_g);
  FD_SET (sv[1], &rset_g);
  tv_g.tv_sec = 1;
  tv_g.tv_usec = 0;
  CHECK (select (sv[1] + 1, &rset_g, NULL, NULL, &tv_g) == 1
	 && FD_ISSET (sv[1], &rset_g));
  char c;
  CHECK (read (sv[1], &c, 1) == 1 && c == 'x');

  /* sendmsg from shared memory, recvmsg into it.  */
  for (int i = 0; i < 2; i++)
    {
      memset (data_g[i], 'a' + i, sizeof data_g[i]);
      iov_g[i].iov_base = data_g[i];
      iov_g[i].iov_len = sizeof data_g[i];
    }
  memset (&msg_g, 0, sizeof msg_g);
  msg_g.msg_iov = iov_g;
  msg_g.msg_iovlen = 2;
  CHECK (sendmsg (sv[0], &msg_g, 0) == 6000);
  memset (data_g, 0, sizeof data_g);
  size_t got = 0;
  while (got < 6000)
    {
      char *base = got < 3000 ? data_g[0] + got : data_g[1] + (got - 3000);
      size_t len = got < 3000 ? 3000 - got : 6000 - got;
      iov_g[0].iov_base = base;
      iov_g[0].iov_len = len;
      msg_g.msg_iovlen = 1;
      ssize_t r = recvmsg (sv[1], &msg_g, 0);
      CHECK (r > 0);
      got += r;
    }
  for (int i = 0; i < 2; i++)
    for (size_t k = 0; k < sizeof data_g[i]; k++)
      CHECK (data_g[i][k] == 'a' + i);
  close (sv[0]);
  close (sv[1]);

  char lpath[128];
  snprintf (lpath, sizeof lpath, "%s/link", test_dir);
  unlink (lpath);
  CHECK (symlink (test_path, lpath) == 0);
  ssize_t n = readlink (lpath, link_g, sizeof link_g);
  CHECK (n == (ssize_t) strlen (test_path)
	 && memcmp (link_g, test_path, n) == 0);
  unlink (lpath);

  pid_t pid;
  char *argv[] = { "/bin/sh", "-c", "exit 7", NULL };
  CHECK (posix_spawn (&pid, "/bin/sh", NULL, NULL, argv, environ) == 0);
  CHECK (waitpid (pid, &status_g, 0) == pid && WIFEXITED (status_g)
	 && WEXITSTATUS (status_g) == 7);

  CHECK (getrlimit (RLIMIT_NOFILE, &rl_g) == 0 && rl_g.rlim_cur > 0
	 && rl_g.rlim_cur <= rl_g.rlim_max);
  CHECK (sigaction (SIGUSR2, NULL, &old_g) == 0);
  CHECK (nanosleep (&req_g, NULL) == 0);
}

int
main (void)
{
  make_file (10);
  scribble ();
  calls ();
  scribble ();
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    calls ();
  CHECK (WEXITSTATUS (status_g) == 7 && link_g[0] == '/');
  remove_file ();
  printf ("misc2 ok\n");
  return 0;
}

/* output.c -- the standard output of the ranks other than 0, written out
   by rank 0 in the order the program's synchronisation gives it
   (OMPC_ORDERED_OUTPUT).

   Under mpiexec every rank's descriptor 1 is a pipe of its own, which
   the launcher merges as the bytes arrive: a line that a thread of node 1
   printed and flushed inside a critical section could come out after the
   line that a thread of node 0 printed in that critical section later
   (DataRaceBench DRB198).  So, on the ranks other than 0, descriptor 1
   becomes a pipe of the rank's own; whatever writes to it (C stdio, C++
   streams, Fortran units, child processes) ends up in rank 0's stdout
   stream, through one call per chunk (GOMP_CL_TAG_OUTPUT), which rank 0
   answers only once the chunk is in that stream.  Every release of such
   a rank (gomp_cl_release: a barrier, a lock's release, a region's end,
   a flush) first flushes its stdout stream and sends what the pipe
   holds, and waits for the answers: what a node printed before a release
   is in rank 0's stream before any node acquires that release, as
   everything the threads of one process print is in its one stream.  A
   thread of the rank reads the pipe between releases too, so that a
   program that prints much between two releases never finds it full.

   Rank 0 appends the chunks to its stdout stream (its buffering then
   applies to them as to its own output: a program that prints to a pipe
   or a file sees its output at exit or at its own fflush, as with one
   process).  Its handler takes the stream's lock with ftrylockfile and
   asks to be run again later while a thread of rank 0 holds it: such a
   thread may be waiting for this node's service thread (a fault while it
   formats shared data).

   Standard error stays as it was (the runtime's fatal messages go there,
   also when the transport is down).  When the job ends in step, a rank
   sends what is left and gives descriptor 1 back; on a fatal error the
   pipe's bytes go straight to the original descriptor.  */

#include "cluster-int.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One chunk: at most this many bytes per call.  */
#define OUTPUT_CHUNK (64 << 10)

static bool output_on;			/* This rank's descriptor 1 is ours.  */
static int output_rd = -1, output_orig = -1;
static bool output_stopped;		/* Chunks go to OUTPUT_ORIG.  */
/* Held while a chunk is read and sent: a release that finds the pipe
   empty also waits for a chunk still on its way.  */
static pthread_mutex_t output_mutex = PTHREAD_MUTEX_INITIALIZER;
static char output_buf[OUTPUT_CHUNK];

/* Writes LEN bytes of BUF to descriptor FD, whatever it takes.  */
static void
output_write_all (int fd, const char *buf, size_t len)
{
  while (len)
    {
      ssize_t n = write (fd, buf, len);
      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	return;
      buf += n;
      len -= n;
    }
}

/* With OUTPUT_MUTEX: sends what the pipe holds, chunk by chunk, until
   it is empty.  */
static void
output_send_locked (void)
{
  for (;;)
    {
      ssize_t n = read (output_rd, output_buf, sizeof output_buf);
      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	return;
      if (output_stopped)
	output_write_all (output_orig, output_buf, n);
      else
	{
	  char ack;
	  gomp_cl_call (0, GOMP_CL_TAG_OUTPUT, output_buf, n, &ack, 1);
	}
    }
}

/* Rank 0: a chunk of another rank's output.  */
static void
output_request (int src, const void *msg, size_t len, uint64_t token)
{
  if (ftrylockfile (stdout) != 0)
    {
      gomp_cl_defer ();
      return;
    }
  fwrite_unlocked (msg, 1, len, stdout);
  funlockfile (stdout);
  char ack = 0;
  gomp_cl_reply (src, token, &ack, 1);
}

/* The thread that reads the pipe between releases.  */
static void *
output_reader (void *arg)
{
  struct pollfd p = { .fd = output_rd, .events = POLLIN };
  for (;;)
    {
      int r = poll (&p, 1, -1);
      if (r < 0 && errno == EINTR)
	continue;
      pthread_mutex_lock (&output_mutex);
      bool stop = output_stopped;
      if (!stop)
	output_send_locked ();
      pthread_mutex_unlock (&output_mutex);
      if (stop || r < 0 || (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
	return NULL;
    }
}

void
gomp_cl_output_init (bool ordered)
{
  if (gomp_cl_rank == 0)
    {
      gomp_cl_register (GOMP_CL_TAG_OUTPUT, output_request);
      return;
    }
  if (!ordered)
    return;
  int p[2];
  fflush (stdout);
  if (pipe2 (p, O_CLOEXEC) != 0)
    gomp_cl_fatal ("cannot make the pipe for this rank's output (%s)",
		   strerror (errno));
  /* Room for what a program prints between two releases (up to the
     system's limit for a pipe; the reader thread keeps it from filling
     anyway).  */
  fcntl (p[1], F_SETPIPE_SZ, 1 << 20);
  fcntl (p[0], F_SETFL, O_NONBLOCK);
  output_orig = fcntl (1, F_DUPFD_CLOEXEC, 3);
  if (output_orig < 0 || dup2 (p[1], 1) < 0)
    gomp_cl_fatal ("cannot redirect this rank's output (%s)",
		   strerror (errno));
  close (p[1]);
  output_rd = p[0];
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  gomp_cl_thread_stack (&attr, 256 << 10);
  if (pthread_create (&t, &attr, output_reader, NULL) != 0)
    gomp_cl_fatal ("cannot start the thread of this rank's output");
  pthread_attr_destroy (&attr);
  output_on = true;
  gomp_cl_abort_hook = gomp_cl_output_fatal;
}

void
gomp_cl_output_release (void)
{
  /* Never from a handler (a call from there could not be answered):
     releases are made by the program's threads.  */
  if (!output_on || gomp_cl_in_progress_pass ())
    return;
  fflush (stdout);
  int n = 0;
  if (ioctl (output_rd, FIONREAD, &n) == 0 && n == 0
      && pthread_mutex_trylock (&output_mutex) == 0)
    {
      /* Nothing in the pipe and no chunk on its way.  */
      pthread_mutex_unlock (&output_mutex);
      return;
    }
  pthread_mutex_lock (&output_mutex);
  output_send_locked ();
  pthread_mutex_unlock (&output_mutex);
}

void
gomp_cl_output_end (void)
{
  if (!output_on)
    return;
  gomp_cl_output_release ();
  pthread_mutex_lock (&output_mutex);
  output_stopped = true;
  /* Descriptor 1 as it was: what is printed from now on (the statistics
     go to stderr) is written straight.  */
  dup2 (output_orig, 1);
  output_send_locked ();
  pthread_mutex_unlock (&output_mutex);
}

void
gomp_cl_output_fatal (void)
{
  if (!output_on || output_orig < 0)
    return;
  /* Signal context maybe: the pipe straight to the original descriptor,
     without the lock or the transport.  */
  char buf[4096];
  ssize_t n;
  while ((n = read (output_rd, buf, sizeof buf)) > 0)
    output_write_all (output_orig, buf, n);
}

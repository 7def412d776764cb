/* heartbeat.c -- liveness of the ranks: a rank that stops answering ends
   the job within seconds, with a message naming it and its host.

   Why.  When a rank dies, hydra ends the job only if it hears of it: a
   rank killed under a live proxy is reported, but a host that loses power
   or its network, a rank or host that is stopped (SIGSTOP, a hung kernel)
   and, with hydra 4.0.2 over several proxies, a rank that exits without
   MPI_Abort leave the other ranks waiting for ever (docs/hosts.md).  MPI
   itself says nothing about a peer that just falls silent.

   How.  Each rank has one heartbeat thread.  Every OMPC_HEARTBEAT / 5
   seconds it sends a one-byte message to the ranks it watches (rank 0
   watches every other rank, the others watch rank 0: a star, 2 (P - 1)
   messages per period for the job) and tests the receive it keeps posted
   for each of them.  A rank silent for OMPC_HEARTBEAT seconds is declared
   lost, and so is one whose connection MPI reports broken: this rank
   prints which rank on which host stopped answering and ends the job with
   MPI_Abort, status 69 (EX_UNAVAILABLE).  What killed a lost rank cannot
   be known from here; hydra prints the signal when it knows it.
   The heartbeats travel on a communicator of their own, sent and tested
   by the heartbeat thread itself, not through the transport: the service
   thread would take each of them for activity and poll hard for a while
   after it (over 1% of a core on an idle rank), and a rank whose service
   thread is busy must not look dead.  MPI's progress (any thread's MPI
   call, mostly the service thread's polling) receives them meanwhile.

   False alarms.  A heartbeat thread that itself woke up late (this rank
   stopped, or the machine so overloaded that it got no processor for a
   period) cannot tell a silent peer from its own absence: it then counts
   the peers as heard from now.  The check runs from just after start-up
   (every rank is then past the start-up handshake) until every rank has
   begun the end of the job (gomp_cl_heartbeat_stop, before the transport
   stops).  A debugger that stops a rank for longer than the limit ends the
   job: run it with OMPC_HEARTBEAT=0.

   Cost: one wake-up of a sleeping thread per period, one small message and
   two MPI_Test per watched peer; nothing else, busy or idle.  */

#include "cluster-int.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* OMPC_HEARTBEAT (seconds, 0 for off) comes parsed from the runtime's
   env_ompc.c (host->env.heartbeat).  */
/* Heartbeats per limit.  */
#define GOMP_CL_HEARTBEAT_BEATS 5
/* The exit status of a job ended because a rank was lost (sysexits.h's
   EX_UNAVAILABLE, as scripts/vcluster's for a lost host).  */
#define GOMP_CL_LOST_STATUS 69
#define GOMP_CL_HOST_NAME_MAX 64

static long gomp_cl_hb_limit_ns, gomp_cl_hb_period_ns;
/* The heartbeats' communicator; per rank watched: when its last
   heartbeat came (CLOCK_MONOTONIC ns), the receive posted for the next
   one and the send of ours in flight.  */
static MPI_Comm gomp_cl_hb_comm = MPI_COMM_NULL;
static long *gomp_cl_hb_last;
static MPI_Request *gomp_cl_hb_recv, *gomp_cl_hb_send;
static unsigned char *gomp_cl_hb_buf;
/* Every rank's host name, for the message.  */
static char (*gomp_cl_hb_hosts)[GOMP_CL_HOST_NAME_MAX];

static pthread_t gomp_cl_hb_thread;
static bool gomp_cl_hb_running, gomp_cl_hb_stopping;
static pthread_mutex_t gomp_cl_hb_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gomp_cl_hb_cond;

/* A watched rank R has been silent for SILENT_NS, or MPI reported its
   connection broken (ERR): say so and end the job.  Several ranks may
   find rank 0 lost at once: each says it, and the launcher ends the job at
   the first abort.  */
static void __attribute__ ((noreturn))
gomp_cl_hb_lost (int r, long silent_ns, int err)
{
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (err != MPI_SUCCESS)
    {
      /* MPICH's text is a stack of calls, one per line: the last line
	 holds the cause (UCX's "Endpoint timeout", say).  */
      MPI_Error_string (err, text, &len);
      const char *cause = strrchr (text, '\n');
      cause = cause && cause[1] ? cause + 1 : text;
      gomp_cl_say ("ompcluster: rank %d: rank %d on host %s stopped "
		   "answering (its connection failed: %s): it was killed, "
		   "or its host or network went down; ending the job\n",
		   gomp_cl_rank, r, gomp_cl_hb_hosts[r], cause);
    }
  else
    {
      /* The silence in tenths of a second, rounded (gomp_cl_say has no
	 %f).  */
      long tenths = (silent_ns + 50000000L) / 100000000L;
      gomp_cl_say ("ompcluster: rank %d: rank %d on host %s stopped "
		   "answering (nothing from it for %ld.%ld s): it was "
		   "killed or stopped, or its host or network went down; "
		   "ending the job (OMPC_HEARTBEAT=%ld sets the limit, 0 "
		   "turns the check off)\n", gomp_cl_rank, r,
		   gomp_cl_hb_hosts[r], tenths / 10, tenths % 10,
		   gomp_cl_hb_limit_ns / 1000000000L);
    }
  gomp_cl_abort_job (GOMP_CL_LOST_STATUS);
}

/* For the module's other point-to-point traffic (barrier.c, region.c):
   MPI reported the connection to rank R broken (ERR).  */
void
gomp_cl_rank_lost (int r, int err)
{
  gomp_cl_hb_lost (r, 0, err);
}

static bool
gomp_cl_hb_watches (int r)
{
  return r != gomp_cl_rank && (gomp_cl_rank == 0 || r == 0);
}

/* One period's work for rank R: takes the heartbeats that came, sends
   ours (unless the previous one is still on its way: the peer then is not
   receiving), and judges.  LATE: this thread woke up late itself.  */
static void
gomp_cl_hb_beat (int r, long now, bool late)
{
  int flag, err;
  for (int i = 0; i < 16; i++)
    {
      flag = 0;
      err = MPI_Test (&gomp_cl_hb_recv[r], &flag, MPI_STATUS_IGNORE);
      if (err != MPI_SUCCESS)
	gomp_cl_hb_lost (r, 0, err);
      if (!flag)
	break;
      __atomic_store_n (&gomp_cl_hb_last[r], now, __ATOMIC_RELAXED);
      err = MPI_Irecv (&gomp_cl_hb_buf[r], 1, MPI_BYTE, r, 0,
		       gomp_cl_hb_comm, &gomp_cl_hb_recv[r]);
      if (err != MPI_SUCCESS)
	gomp_cl_hb_lost (r, 0, err);
    }
  flag = 1;
  if (gomp_cl_hb_send[r] != MPI_REQUEST_NULL)
    {
      err = MPI_Test (&gomp_cl_hb_send[r], &flag, MPI_STATUS_IGNORE);
      if (err != MPI_SUCCESS)
	gomp_cl_hb_lost (r, 0, err);
    }
  if (flag)
    {
      static const unsigned char beat = 1;
      err = MPI_Isend (&beat, 1, MPI_BYTE, r, 0, gomp_cl_hb_comm,
		       &gomp_cl_hb_send[r]);
      if (err != MPI_SUCCESS)
	gomp_cl_hb_lost (r, 0, err);
    }
  long last = __atomic_load_n (&gomp_cl_hb_last[r], __ATOMIC_RELAXED);
  if (late && last < now - gomp_cl_hb_period_ns)
    __atomic_store_n (&gomp_cl_hb_last[r], now - gomp_cl_hb_period_ns,
		      __ATOMIC_RELAXED);
  else if (now - last > gomp_cl_hb_limit_ns)
    gomp_cl_hb_lost (r, now - last, MPI_SUCCESS);
}

static void *
gomp_cl_hb_main (void *arg)
{
  long prev = gomp_cl_now_ns ();

  pthread_mutex_lock (&gomp_cl_hb_mutex);
  for (;;)
    {
      long wake = prev + gomp_cl_hb_period_ns;
      struct timespec ts = { wake / 1000000000L, wake % 1000000000L };
      while (!gomp_cl_hb_stopping
	     && pthread_cond_timedwait (&gomp_cl_hb_cond, &gomp_cl_hb_mutex,
					&ts) != ETIMEDOUT)
	;
      if (gomp_cl_hb_stopping)
	break;
      pthread_mutex_unlock (&gomp_cl_hb_mutex);
      long now = gomp_cl_now_ns ();
      /* Woken more than a period late: this rank was held up itself.  */
      bool late = now - wake > gomp_cl_hb_period_ns;
      prev = now;
      for (int r = 0; r < gomp_cl_nodes; r++)
	if (gomp_cl_hb_watches (r))
	  gomp_cl_hb_beat (r, now, late);
      pthread_mutex_lock (&gomp_cl_hb_mutex);
    }
  pthread_mutex_unlock (&gomp_cl_hb_mutex);
  return NULL;
}

/* Makes the heartbeats' communicator, gathers the host names and posts
   the receives.  */
static void
gomp_cl_hb_init (void)
{
  char name[GOMP_CL_HOST_NAME_MAX];
  MPI_Request req;
  int p = gomp_cl_nodes;

  gomp_cl_hb_limit_ns = (long) gomp_cl_host->env.heartbeat * 1000000000L;
  gomp_cl_hb_period_ns = gomp_cl_hb_limit_ns / GOMP_CL_HEARTBEAT_BEATS;
  gomp_cl_hb_last = calloc (p, sizeof *gomp_cl_hb_last);
  gomp_cl_hb_hosts = calloc (p, sizeof *gomp_cl_hb_hosts);
  gomp_cl_hb_recv = malloc (p * sizeof *gomp_cl_hb_recv);
  gomp_cl_hb_send = malloc (p * sizeof *gomp_cl_hb_send);
  gomp_cl_hb_buf = calloc (p, 1);
  if (!gomp_cl_hb_last || !gomp_cl_hb_hosts || !gomp_cl_hb_recv
      || !gomp_cl_hb_send || !gomp_cl_hb_buf)
    gomp_cl_fatal ("out of memory");
  memset (name, 0, sizeof name);
  if (gethostname (name, sizeof name - 1) != 0)
    strcpy (name, "?");
  /* Every rank takes part, also with the check off: collectives start in
     the same order everywhere.  */
  gomp_cl_check_mpi (MPI_Comm_dup (MPI_COMM_WORLD, &gomp_cl_hb_comm),
		     "MPI_Comm_dup");
  gomp_cl_check_mpi (MPI_Iallgather (name, sizeof name, MPI_CHAR,
				     gomp_cl_hb_hosts, sizeof name, MPI_CHAR,
				     gomp_cl_coll_comm, &req),
		     "MPI_Iallgather");
  gomp_cl_wait (&req);
  for (int r = 0; r < p; r++)
    {
      gomp_cl_hb_recv[r] = gomp_cl_hb_send[r] = MPI_REQUEST_NULL;
      if (gomp_cl_hb_limit_ns && gomp_cl_hb_watches (r))
	gomp_cl_check_mpi (MPI_Irecv (&gomp_cl_hb_buf[r], 1, MPI_BYTE, r, 0,
				      gomp_cl_hb_comm, &gomp_cl_hb_recv[r]),
			   "MPI_Irecv");
    }
}

const char *
gomp_cl_host_name (int rank)
{
  if (!gomp_cl_hb_hosts || rank < 0 || rank >= gomp_cl_nodes)
    return "?";
  return gomp_cl_hb_hosts[rank];
}

void
gomp_cl_heartbeat_start (void)
{
  pthread_condattr_t ca;
  pthread_attr_t attr;

  gomp_cl_hb_init ();
  if (gomp_cl_hb_limit_ns == 0)
    return;
  pthread_condattr_init (&ca);
  pthread_condattr_setclock (&ca, CLOCK_MONOTONIC);
  pthread_cond_init (&gomp_cl_hb_cond, &ca);
  pthread_condattr_destroy (&ca);
  long now = gomp_cl_now_ns ();
  for (int r = 0; r < gomp_cl_nodes; r++)
    gomp_cl_hb_last[r] = now;
  pthread_attr_init (&attr);
  gomp_cl_thread_stack (&attr, 256 << 10);
  if (pthread_create (&gomp_cl_hb_thread, &attr, gomp_cl_hb_main, NULL) != 0)
    gomp_cl_fatal ("cannot start the heartbeat thread");
  pthread_attr_destroy (&attr);
  gomp_cl_hb_running = true;
}

void
gomp_cl_heartbeat_stop (void)
{
  if (!gomp_cl_hb_running)
    return;
  pthread_mutex_lock (&gomp_cl_hb_mutex);
  gomp_cl_hb_stopping = true;
  pthread_cond_signal (&gomp_cl_hb_cond);
  pthread_mutex_unlock (&gomp_cl_hb_mutex);
  pthread_join (gomp_cl_hb_thread, NULL);
  gomp_cl_hb_running = false;
}

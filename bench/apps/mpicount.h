/* mpicount.h -- the MPI versions count the bytes and messages they send.

   Point-to-point sends go through bench_send/bench_isend/bench_sendrecv,
   which count exactly.  The only collectives used are reductions and
   broadcasts of a few values; each is counted as the messages of the
   textbook algorithm for P ranks: an allreduce by recursive doubling
   (ceil(log2 P) messages of the payload per rank), a reduce or a broadcast
   by a binomial tree (P - 1 messages in all).  bench_count_report sums the
   counters over the ranks (not counted) and rank 0 prints them.  */

#ifndef BENCH_MPICOUNT_H
#define BENCH_MPICOUNT_H 1

#include <mpi.h>
#include <stdio.h>

static long long bench_bytes, bench_msgs;

static inline int
bench_type_size (MPI_Datatype t)
{
  int s;
  MPI_Type_size (t, &s);
  return s;
}

static inline int
bench_log2_ceil (int p)
{
  int l = 0;
  while ((1 << l) < p)
    l++;
  return l;
}

static inline void
bench_count (long long bytes, long long msgs)
{
  bench_bytes += bytes;
  bench_msgs += msgs;
}

static inline void
bench_send (const void *buf, int n, MPI_Datatype t, int to, int tag)
{
  bench_count ((long long) n * bench_type_size (t), 1);
  MPI_Send (buf, n, t, to, tag, MPI_COMM_WORLD);
}

static inline void
bench_isend (const void *buf, int n, MPI_Datatype t, int to, int tag,
	     MPI_Request *req)
{
  bench_count ((long long) n * bench_type_size (t), 1);
  MPI_Isend (buf, n, t, to, tag, MPI_COMM_WORLD, req);
}

static inline void
bench_sendrecv (const void *sbuf, int sn, int to, void *rbuf, int rn,
		int from, MPI_Datatype t, int tag)
{
  if (to != MPI_PROC_NULL)
    bench_count ((long long) sn * bench_type_size (t), 1);
  MPI_Sendrecv (sbuf, sn, t, to, tag, rbuf, rn, t, from, tag, MPI_COMM_WORLD,
		MPI_STATUS_IGNORE);
}

static inline void
bench_allreduce (const void *in, void *out, int n, MPI_Datatype t, MPI_Op op)
{
  int p;
  MPI_Comm_size (MPI_COMM_WORLD, &p);
  bench_count ((long long) n * bench_type_size (t) * bench_log2_ceil (p),
	       bench_log2_ceil (p));
  MPI_Allreduce (in, out, n, t, op, MPI_COMM_WORLD);
}

static inline void
bench_reduce (const void *in, void *out, int n, MPI_Datatype t, MPI_Op op)
{
  int p, r;
  MPI_Comm_size (MPI_COMM_WORLD, &p);
  MPI_Comm_rank (MPI_COMM_WORLD, &r);
  if (r != 0)			/* Every rank but the root sends once.  */
    bench_count ((long long) n * bench_type_size (t), 1);
  MPI_Reduce (in, out, n, t, op, 0, MPI_COMM_WORLD);
}

static inline void
bench_count_report (void)
{
  long long mine[2] = { bench_bytes, bench_msgs }, all[2];
  int r;
  MPI_Comm_rank (MPI_COMM_WORLD, &r);
  MPI_Reduce (mine, all, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (r == 0)
    printf ("mpi_bytes %lld\nmpi_msgs %lld\n", all[0], all[1]);
}

#endif /* BENCH_MPICOUNT_H */

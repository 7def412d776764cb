/* is_mpi.c -- integer bucket sort in the manner of NPB IS, hand-written
   MPI: the twin of is_omp.c.

   usage: mpiexec -n P is_mpi [LOG2N]
   Rank r generates the static block of keys thread r would, and owns the
   static block of buckets thread r would sort.  Per sort: count the keys
   per bucket, make the bucket totals global (allreduce), tell every rank
   how many keys it will get (one count per pair of ranks), send each rank
   the keys of its buckets, and counting-sort what arrived.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "is.h"
#include "mpicount.h"

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int lg = argc > 1 ? atoi (argv[1]) : 23;
  long n = 1L << lg;
  long lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  int *key = malloc (mine * sizeof *key), *out = malloc (mine * sizeof *out);
  long room = n;		/* The keys pile up in the middle ranks.  */
  int *sorted = malloc (room * sizeof *sorted);
  int *recv = malloc (room * sizeof *recv);
  long hist[IS_NB], total[IS_NB];
  long *scount = calloc (size, sizeof *scount), *rcount = calloc (size, sizeof *rcount);
  long *sdispl = calloc (size + 1, sizeof *sdispl), *rdispl = calloc (size + 1, sizeof *rdispl);
  long *pos = malloc (IS_NB * sizeof *pos);
  int *blo = malloc ((size + 1) * sizeof *blo), *owner = malloc (IS_NB * sizeof *owner);
  MPI_Request *req = malloc (2 * size * sizeof *req);
  MPI_Status *st = malloc (2 * size * sizeof *st);
  for (int r = 0; r <= size; r++)
    blo[r] = IS_NB * r / size;
  for (int r = 0; r < size; r++)
    for (int b = blo[r]; b < blo[r + 1]; b++)
      owner[b] = r;
  long klo = (long) blo[rank] << IS_SHIFT, khi = (long) blo[rank + 1] << IS_SHIFT;
  long *cnt = malloc ((khi - klo + 1) * sizeof *cnt);
  if (!key || !out || !sorted || !recv || !cnt)
    MPI_Abort (MPI_COMM_WORLD, 2);
  is_keys (lo, hi, key);
  long nsorted = 0, first = 0;

  MPI_Barrier (MPI_COMM_WORLD);
  /* Sort -1 is NPB's untimed first iteration (is.h).  */
  double t0 = bench_now (), warm = 0;
  for (int it = -1; it < IS_ITERS; it++)
    {
      if (it == 0)
	{
	  MPI_Barrier (MPI_COMM_WORLD);
	  warm = bench_now () - t0;
	  t0 = bench_now ();
	}
      int k = it < 0 ? 0 : it, tag = 2 * (it + 1);
      if (k >= lo && k < hi)
	key[k - lo] = k;
      if (k + IS_ITERS >= lo && k + IS_ITERS < hi)
	key[k + IS_ITERS - lo] = IS_MAXKEY - 1 - k;
      memset (hist, 0, sizeof hist);
      for (long i = 0; i < mine; i++)
	hist[key[i] >> IS_SHIFT]++;
      bench_allreduce (hist, total, IS_NB, MPI_LONG, MPI_SUM);
      /* Pack my keys by destination rank, buckets in order.  */
      memset (scount, 0, size * sizeof *scount);
      for (int b = 0; b < IS_NB; b++)
	scount[owner[b]] += hist[b];
      sdispl[0] = 0;
      for (int r = 0; r < size; r++)
	sdispl[r + 1] = sdispl[r] + scount[r];
      long p = 0;
      for (int b = 0; b < IS_NB; b++)
	{
	  pos[b] = p;
	  p += hist[b];
	}
      for (long i = 0; i < mine; i++)
	out[pos[key[i] >> IS_SHIFT]++] = key[i];
      /* Counts, then keys, between every pair of ranks.  */
      int nreq = 0;
      for (int r = 0; r < size; r++)
	if (r != rank)
	  {
	    MPI_Irecv (&rcount[r], 1, MPI_LONG, r, tag, MPI_COMM_WORLD, &req[nreq++]);
	    bench_isend (&scount[r], 1, MPI_LONG, r, tag, &req[nreq++]);
	  }
      MPI_Waitall (nreq, req, st);
      rcount[rank] = scount[rank];
      rdispl[0] = 0;
      for (int r = 0; r < size; r++)
	rdispl[r + 1] = rdispl[r] + rcount[r];
      if (rdispl[size] > room)
	MPI_Abort (MPI_COMM_WORLD, 3);
      nreq = 0;
      for (int r = 0; r < size; r++)
	if (r != rank)
	  {
	    MPI_Irecv (recv + rdispl[r], rcount[r], MPI_INT, r, tag + 1,
		       MPI_COMM_WORLD, &req[nreq++]);
	    bench_isend (out + sdispl[r], scount[r], MPI_INT, r, tag + 1,
			 &req[nreq++]);
	  }
      memcpy (recv + rdispl[rank], out + sdispl[rank], scount[rank] * sizeof *out);
      MPI_Waitall (nreq, req, st);
      /* Counting sort of my key range.  */
      nsorted = rdispl[size];
      memset (cnt, 0, (khi - klo) * sizeof *cnt);
      for (long i = 0; i < nsorted; i++)
	cnt[recv[i] - klo]++;
      long q = 0;
      for (long k = klo; k < khi; k++)
	for (long c = cnt[k - klo]; c > 0; c--)
	  sorted[q++] = (int) k;
      first = 0;
      for (int b = 0; b < blo[rank]; b++)
	first += total[b];
    }
  MPI_Barrier (MPI_COMM_WORLD);
  double t1 = bench_now ();

  /* Ordered within the rank and across the boundary to the next rank;
     the same keys (sum and xor) as were generated (with the changes).  */
  long bad = 0, v[4] = { 0, 0, 0, 0 }, all[4];	/* sum in-out, xor in, xor out, check */
  for (long i = 1; i < nsorted; i++)
    if (sorted[i - 1] > sorted[i])
      bad++;
  long x_in = 0, x_out = 0, s = 0;
  for (long i = 0; i < mine; i++)
    {
      s += key[i];
      x_in ^= key[i] * 2654435761L;
    }
  for (long i = 0; i < nsorted; i++)
    {
      s -= sorted[i];
      x_out ^= sorted[i] * 2654435761L;
      v[3] += sorted[i] * is_weight (first + i);
    }
  v[0] = s;
  int last = nsorted ? sorted[nsorted - 1] : -1, prev = -1;
  bench_sendrecv (&last, 1, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, &prev, 1,
		  rank > 0 ? rank - 1 : MPI_PROC_NULL, MPI_INT, 9999);
  if (rank > 0 && nsorted && prev > sorted[0])
    bad++;
  long xs[2] = { x_in, x_out }, xall[2];
  bench_reduce (xs, xall, 2, MPI_LONG, MPI_BXOR);
  v[1] = bad;
  bench_reduce (v, all, 4, MPI_LONG, MPI_SUM);
  if (rank == 0)
    {
      int wrong = all[0] != 0 || all[1] != 0 || xall[0] != xall[1];
      printf ("time %.6f\nwarmup %.6f\ncheck %ld\nverified %s\n", t1 - t0,
	      warm, all[3],
	      wrong ? "no (not ordered, or keys lost)" : "yes");
    }
  bench_count_report ();
  MPI_Finalize ();
  return 0;
}

/* Deferred task records are recycled by the thread that frees them: data
   blocks and depend lists of every size (within a recycled record and
   beyond it), over-aligned data, records created by one thread and freed
   by others, and threads that end (omp_pause_resource_all) with records
   cached.  Each task checks its own copy of the data.  */
/* ompc-nodes: 1 1x2 1x4 2x1 2x2 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct big { unsigned char b[1000]; };
struct mid { unsigned char b[200]; };
struct al { _Alignas (128) unsigned v[8]; };

static int wrong, ran;

static void
fill (unsigned char *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char) (seed * 31 + i * 7);
}

static int
same (const unsigned char *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char) (seed * 31 + i * 7))
      return 0;
  return 1;
}

static void
bad (void)
{
  #pragma omp atomic
  wrong++;
}

static void
done (void)
{
  #pragma omp atomic
  ran++;
}

/* One task of each kind, seeded with SEED.  */
static void
make_tasks (unsigned seed, int *deps)
{
  int small = (int) seed;
  struct mid m;
  struct big b;
  struct al a;
  fill (m.b, sizeof m.b, seed);
  fill (b.b, sizeof b.b, seed + 1);
  for (int i = 0; i < 8; i++)
    a.v[i] = seed + i;

  #pragma omp task firstprivate(small, seed)
  {
    if (small != (int) seed)
      bad ();
    done ();
  }
  #pragma omp task firstprivate(m, seed)
  {
    if (!same (m.b, sizeof m.b, seed))
      bad ();
    done ();
  }
  #pragma omp task firstprivate(b, seed)
  {
    if (!same (b.b, sizeof b.b, seed + 1))
      bad ();
    done ();
  }
  #pragma omp task firstprivate(a, seed)
  {
    if (((uintptr_t) &a & 127) != 0)
      bad ();
    for (int i = 0; i < 8; i++)
      if (a.v[i] != seed + i)
	bad ();
    done ();
  }
  /* Many depend items: a record larger than a recycled one.  */
  #pragma omp task firstprivate(seed) \
    depend(inout: deps[0], deps[1], deps[2], deps[3], deps[4], deps[5], \
		  deps[6], deps[7], deps[8], deps[9], deps[10], deps[11], \
		  deps[12], deps[13], deps[14], deps[15])
  {
    for (int i = 0; i < 16; i++)
      deps[i]++;
    done ();
  }
}

static int
round_all (int rounds)
{
  int deps[64][16];
  memset (deps, 0, sizeof deps);
  int expect = 0;
  #pragma omp parallel shared(deps)
  {
    int me = omp_get_thread_num ();
    for (int r = 0; r < rounds; r++)
      make_tasks ((unsigned) (me * 1000 + r), deps[me % 64]);
    #pragma omp taskwait
    for (int i = 0; i < 16; i++)
      if (deps[me % 64][i] != rounds)
	bad ();
    #pragma omp atomic
    expect += 5 * rounds;
  }
  return expect;
}

static int
round_single (int rounds)
{
  int deps[16] = { 0 };
  #pragma omp parallel shared(deps)
  #pragma omp single
  {
    for (int r = 0; r < rounds; r++)
      make_tasks ((unsigned) r + 7, deps);
    #pragma omp taskwait
    for (int i = 0; i < 16; i++)
      if (deps[i] != rounds)
	bad ();
  }
  return 5 * rounds;
}

int
main (void)
{
  int expect = 0;
  for (int k = 0; k < 3; k++)
    {
      expect += round_all (200);
      expect += round_single (400);
      /* The workers end with records in their caches; new ones start.  */
      if (omp_pause_resource_all (omp_pause_hard) != 0)
	{
	  printf ("omp_pause_resource_all failed\n");
	  return 1;
	}
    }
  if (wrong || ran != expect)
    {
      printf ("wrong %d, ran %d of %d\n", wrong, ran, expect);
      return 1;
    }
  printf ("OK\n");
  return 0;
}

/* Every __atomic_* and __sync_* builtin form, at 1, 2, 4, 8 and 16 bytes and
   for an object of another size, goes through the runtime and gives the
   results a plain build gives.  Every lock-prefixed instruction left in
   this program's code sits beside the runtime call that replaces it with
   several nodes (the plugin's default inline-atomics).
   ompc-nodes: 1 1x2 1x4 2x1 2x2
   ompc-options: -Wno-sync-nand
   ompc-check: nm %exe | grep -Eq ' U ompc_flush(@.*)?$'
   ompc-check: sh "$(dirname %src)/aux/atomics-check.sh" guarded-need %exe
   ompc-timeout: 60  */

#include <stdio.h>
#include <string.h>
#include <omp.h>

static int errors;

#define CHECK(cond)							\
  do { if (!(cond)) { printf ("line %d: %s\n", __LINE__, #cond);	\
		      errors++; } } while (0)

/* One function per size; T is the type, the test is the same for all.  */
#define SIZE_TEST(NAME, T)						\
static T NAME##_v;							\
static void								\
test_##NAME (int nthreads)						\
{									\
  T v = 0, e;								\
  __atomic_store_n (&NAME##_v, (T) 5, __ATOMIC_SEQ_CST);		\
  CHECK (__atomic_load_n (&NAME##_v, __ATOMIC_ACQUIRE) == 5);		\
  CHECK (__atomic_exchange_n (&NAME##_v, (T) 6, __ATOMIC_SEQ_CST) == 5); \
  e = 6;								\
  CHECK (__atomic_compare_exchange_n (&NAME##_v, &e, (T) 7, 0,		\
				      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)); \
  e = 1;								\
  CHECK (!__atomic_compare_exchange_n (&NAME##_v, &e, (T) 8, 1,		\
				       __ATOMIC_SEQ_CST, __ATOMIC_RELAXED) \
	 && e == 7);							\
  CHECK (__atomic_fetch_add (&NAME##_v, 3, __ATOMIC_RELAXED) == 7);	\
  CHECK (__atomic_add_fetch (&NAME##_v, 3, __ATOMIC_RELAXED) == 13);	\
  CHECK (__atomic_fetch_sub (&NAME##_v, 1, __ATOMIC_RELAXED) == 13);	\
  CHECK (__atomic_sub_fetch (&NAME##_v, 2, __ATOMIC_RELAXED) == 10);	\
  CHECK (__atomic_fetch_and (&NAME##_v, 6, __ATOMIC_RELAXED) == 10);	\
  CHECK (__atomic_and_fetch (&NAME##_v, 3, __ATOMIC_RELAXED) == 2);	\
  CHECK (__atomic_fetch_or (&NAME##_v, 1, __ATOMIC_RELAXED) == 2);	\
  CHECK (__atomic_or_fetch (&NAME##_v, 4, __ATOMIC_RELAXED) == 7);	\
  CHECK (__atomic_fetch_xor (&NAME##_v, 5, __ATOMIC_RELAXED) == 7);	\
  CHECK (__atomic_xor_fetch (&NAME##_v, 1, __ATOMIC_RELAXED) == 3);	\
  CHECK (__atomic_fetch_nand (&NAME##_v, 1, __ATOMIC_RELAXED) == 3);	\
  CHECK (__atomic_nand_fetch (&NAME##_v, 0, __ATOMIC_RELAXED) == (T) ~0); \
  __atomic_store_n (&NAME##_v, (T) 0, __ATOMIC_RELAXED);		\
  CHECK (__sync_fetch_and_add (&NAME##_v, 9) == 0);			\
  CHECK (__sync_add_and_fetch (&NAME##_v, 1) == 10);			\
  CHECK (__sync_fetch_and_sub (&NAME##_v, 2) == 10);			\
  CHECK (__sync_sub_and_fetch (&NAME##_v, 1) == 7);			\
  CHECK (__sync_fetch_and_or (&NAME##_v, 8) == 7);			\
  CHECK (__sync_or_and_fetch (&NAME##_v, 16) == 31);			\
  CHECK (__sync_fetch_and_and (&NAME##_v, 15) == 31);			\
  CHECK (__sync_and_and_fetch (&NAME##_v, 7) == 7);			\
  CHECK (__sync_fetch_and_xor (&NAME##_v, 1) == 7);			\
  CHECK (__sync_xor_and_fetch (&NAME##_v, 3) == 5);			\
  CHECK (__sync_fetch_and_nand (&NAME##_v, 4) == 5);			\
  CHECK (__sync_nand_and_fetch (&NAME##_v, 0) == (T) ~0);		\
  CHECK (__sync_bool_compare_and_swap (&NAME##_v, (T) ~0, 4));		\
  CHECK (!__sync_bool_compare_and_swap (&NAME##_v, 3, 5));		\
  CHECK (__sync_val_compare_and_swap (&NAME##_v, 4, 6) == 4);		\
  CHECK (__sync_val_compare_and_swap (&NAME##_v, 4, 8) == 6);		\
  CHECK (__sync_lock_test_and_set (&NAME##_v, 1) == 6);			\
  __sync_lock_release (&NAME##_v);					\
  CHECK (NAME##_v == 0);						\
  /* Contended: every thread adds and CASes.  */			\
  _Pragma ("omp parallel")						\
  for (int i = 0; i < 1000; i++)					\
    {									\
      __atomic_fetch_add (&NAME##_v, 1, __ATOMIC_RELAXED);		\
      __sync_fetch_and_add (&NAME##_v, 1);				\
      T old = __atomic_load_n (&NAME##_v, __ATOMIC_RELAXED);		\
      while (!__atomic_compare_exchange_n (&NAME##_v, &old, old + 1, 1,	\
					   __ATOMIC_RELAXED,		\
					   __ATOMIC_RELAXED))		\
	;								\
    }									\
  v = __atomic_load_n (&NAME##_v, __ATOMIC_SEQ_CST);			\
  CHECK (v == (T) (3000 * nthreads));					\
}

SIZE_TEST (u8, unsigned char)
SIZE_TEST (u16, unsigned short)
SIZE_TEST (u32, unsigned int)
SIZE_TEST (u64, unsigned long)
SIZE_TEST (u128, unsigned __int128)

struct odd { char c[24]; };
static struct odd odd_v;

static void
test_generic (void)
{
  struct odd a, b, c;
  memset (&a, 1, sizeof a);
  memset (&b, 2, sizeof b);
  __atomic_store (&odd_v, &a, __ATOMIC_SEQ_CST);
  __atomic_load (&odd_v, &c, __ATOMIC_SEQ_CST);
  CHECK (memcmp (&c, &a, sizeof a) == 0);
  __atomic_exchange (&odd_v, &b, &c, __ATOMIC_SEQ_CST);
  CHECK (memcmp (&c, &a, sizeof a) == 0);
  CHECK (!__atomic_compare_exchange (&odd_v, &a, &a, 0, __ATOMIC_SEQ_CST,
				     __ATOMIC_SEQ_CST));
  CHECK (memcmp (&a, &b, sizeof a) == 0);
  memset (&c, 3, sizeof c);
  CHECK (__atomic_compare_exchange (&odd_v, &b, &c, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST));
  CHECK (odd_v.c[23] == 3);
}

static char flag;

static void
test_flag (void)
{
  CHECK (!__atomic_test_and_set (&flag, __ATOMIC_SEQ_CST));
  CHECK (__atomic_test_and_set (&flag, __ATOMIC_SEQ_CST));
  __atomic_clear (&flag, __ATOMIC_SEQ_CST);
  CHECK (!__atomic_test_and_set (&flag, __ATOMIC_SEQ_CST));
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  __sync_synchronize ();
  CHECK (__atomic_always_lock_free (4, 0));
}

int
main (void)
{
  int nthreads = 0;
#pragma omp parallel
#pragma omp master
  nthreads = omp_get_num_threads ();
  test_u8 (nthreads);
  test_u16 (nthreads);
  test_u32 (nthreads);
  test_u64 (nthreads);
  test_u128 (nthreads);
  test_generic ();
  test_flag ();
  if (errors)
    printf ("%d errors\n", errors);
  return errors != 0;
}

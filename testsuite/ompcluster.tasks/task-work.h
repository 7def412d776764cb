/* A task's work for the tests of tasks that move (task-steal-*.c): ROUNDS
   steps of a 64-bit LCG from SEED, about a millisecond per 400000 on
   these machines; deterministic, so that the main thread can check it.  */
static long
work (long seed, int rounds)
{
  unsigned long x = (unsigned long) seed * 2654435761u + 1;
  for (int i = 0; i < rounds; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  return (long) (x >> 17);
}

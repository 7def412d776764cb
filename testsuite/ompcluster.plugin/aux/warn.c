/* diagnostics.sh: each construct the plugin warns about, marked with the
   word WARN-HERE on the line the warning must name; and two that must not
   warn (NO-WARN).  */
int kept __attribute__ ((section ("user_data"))) = 1;	/* WARN-HERE section */
int counter;

static int
plain_asm (int x)
{
  __asm__ volatile ("nop");	/* NO-WARN: no OpenMP construct here */
  return x;
}

int
main (void)
{
#pragma omp parallel
  {
    __asm__ volatile ("" ::: "memory");	/* NO-WARN: compiler barrier only */
    __asm__ volatile ("lock; incl %0" : "+m" (counter));	/* WARN-HERE asm */
  }
  int x = 0;
#pragma omp target map(tofrom : x)	/* WARN-HERE target */
  x++;
  return plain_asm (x) != 1;
}

/* Compile-only check program for sections.sh: one variable of every kind
   the plugin moves or leaves alone.  */
#include <string.h>

int zero_var[16];
double init_var = 1.5;
static int static_var = 3;
char huge[200 << 20];
_Thread_local int tls_var = 4;
__thread int tls_zero;
const int const_var = 5;
const char *const str_ptr = "abc";
int user_sec __attribute__ ((section ("mysec"))) = 1;
int tp_var;
#pragma omp threadprivate (tp_var)

int *
static_local (void)
{
  static int local_var = 6;
  return &local_var;
}

int
main (void)
{
  int n = 0;
#pragma omp parallel
#pragma omp critical(sec_name)
  {
    n++;
    tp_var++;
  }
  huge[sizeof huge - 1] = (char) n;
  memset (huge, 1, 4096);
  return (huge[0] + huge[sizeof huge - 1] + static_var + *static_local ()
	  + zero_var[0] + (int) init_var + tls_var + tls_zero + const_var
	  + str_ptr[0] + user_sec) == 0;
}

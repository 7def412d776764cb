/* timer-proto.h -- put before every NPB source by the bench-npb harness
   (gcc -include): NPB 3.0's OpenMP C IS calls timer_read without a
   prototype, which C99 and later reject, and an implicit int would
   truncate the double it returns.  The declaration is the one
   common/c_timers.c defines, so the sources stay as NPB ships them.  */
double timer_read (int);

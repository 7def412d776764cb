/* keep-gaps.h -- the write schedule of keep-rewrite.c and home-keep.c:
   the writer of block K writes it at gaps of 1 to 150 barriers, taken
   in turn from GAPS starting at K's place, so that some blocks are
   written again while still kept and others after they expired.  */

#ifndef KEEP_GAPS_H
#define KEEP_GAPS_H 1

static const int gaps[] = { 1, 1, 40, 3, 150, 60, 2, 100, 30, 120 };

/* Whether the writer of block K writes at step S, and how many times it
   wrote before (a value changes every third write).  */
static int
writes_at (long k, int s, int *count)
{
  int n = 0, at = 0, i = (int) (k % 10);
  while (at <= s)
    {
      if (at == s)
	{
	  *count = n;
	  return 1;
	}
      at += gaps[i];
      i = (i + 1) % 10;
      n++;
    }
  *count = n;
  return 0;
}

#endif

/* ompfuzz -s 4, phase 2 only: at 2x1 the last section reads sval (written before a release store of sflag by section 0) as 0 after its acquire load saw sflag == 1: prints P2 lx 50d205799b191e2b instead of GCC libgomp's ba34a18aef978a4c.  The known open issue of memory-order atomics not carrying other data between nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <omp.h>

static inline uint64_t mixv(uint64_t x, uint64_t k)
{ x = x * 0x9E3779B97F4A7C15ULL + k; x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ULL; return x ^ (x >> 32); }
static inline uint64_t hsh(uint64_t h, uint64_t v)
{ return (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL + (h >> 7); }
struct rec { int8_t a; uint8_t b; int16_t c; uint16_t d; int32_t e; float f; int64_t g; double h; uint8_t k; };
static omp_lock_t lk, lk2;
static omp_nest_lock_t nlk;
static struct rec rec0[98];
static uint8_t *p_rv5;
static int8_t *p_cv6;
static int16_t gv12[440];

int main(void)
{
  uint8_t kv1[475];
  for (long i = 0; i < 475; i++) kv1[i] = (uint8_t)(mixv((uint64_t)i, 0xc3ab274cc84fb4d2ULL));
  int64_t *mv2 = malloc(8560 * sizeof(int64_t));
  for (long i = 0; i < 8560; i++) mv2[i] = (int64_t)(mixv((uint64_t)i, 0x5d1e92888adc7ca8ULL));
  static int8_t sv3[1886];
  for (long i = 0; i < 1886; i++) sv3[i] = (int8_t)(mixv((uint64_t)i, 0x37996e7c8b03a071ULL));
  static uint8_t sv4[758];
  for (long i = 0; i < 758; i++) sv4[i] = (uint8_t)(mixv((uint64_t)i, 0x5dc55a1850060db9ULL));
  uint8_t *rv5 = malloc(726 * sizeof(uint8_t));
  for (long i = 0; i < 726; i++) rv5[i] = (uint8_t)(mixv((uint64_t)i, 0xbee32b199214d4c1ULL));
  rv5 = realloc(rv5, 1451 * sizeof(uint8_t));
  for (long i = 726; i < 1451; i++) rv5[i] = (uint8_t)(mixv((uint64_t)i, 0xbee32b199214d4c1ULL));
  p_rv5 = rv5;
  int8_t *cv6 = calloc(1, sizeof(int8_t));
  p_cv6 = cv6;
  uint16_t kv7[857];
  for (long i = 0; i < 857; i++) kv7[i] = (uint16_t)(mixv((uint64_t)i, 0x6ea47cb360d1aef4ULL));
  int16_t kv8[1532];
  for (long i = 0; i < 1532; i++) kv8[i] = (int16_t)(mixv((uint64_t)i, 0xe6dcafb28af12669ULL));
  double *rv9 = malloc(2 * sizeof(double));
  for (long i = 0; i < 2; i++) rv9[i] = (double)((mixv((uint64_t)i, 0x76fd7ec30055ffbcULL)) & 0xfffffffffffffULL);
  rv9 = realloc(rv9, 3 * sizeof(double));
  for (long i = 2; i < 3; i++) rv9[i] = (double)((mixv((uint64_t)i, 0x76fd7ec30055ffbcULL)) & 0xfffffffffffffULL);
  int8_t *rv10 = malloc(2 * sizeof(int8_t));
  for (long i = 0; i < 2; i++) rv10[i] = (int8_t)(mixv((uint64_t)i, 0xfa7e82e90a0b59bULL));
  rv10 = realloc(rv10, 3 * sizeof(int8_t));
  for (long i = 2; i < 3; i++) rv10[i] = (int8_t)(mixv((uint64_t)i, 0xfa7e82e90a0b59bULL));
  int8_t *rv11 = malloc(310 * sizeof(int8_t));
  for (long i = 0; i < 310; i++) rv11[i] = (int8_t)(mixv((uint64_t)i, 0x2f26406cac111ebULL));
  rv11 = realloc(rv11, 619 * sizeof(int8_t));
  for (long i = 310; i < 619; i++) rv11[i] = (int8_t)(mixv((uint64_t)i, 0x2f26406cac111ebULL));
  for (long i = 0; i < 440; i++) gv12[i] = (int16_t)(mixv((uint64_t)i, 0x98d80d6564ccbbb6ULL));
  omp_init_lock(&lk2);
  /* phase 2: sections */
  {
  uint64_t lx = 0, rs = 0;
  int sflag = 0; uint64_t sval = 0;
#pragma omp parallel sections lastprivate(lx) reduction(+:rs)
  {
#pragma omp section
    {
      for (long i = 0; i < 79; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0x7cb2e651eefbf2dcULL) - ((uint64_t)(int64_t)(gv12[(long)(((uint64_t)(i) * 644u + 171u) % 440u)])));
        rs += (uint64_t)i * 86u;
      }
      lx = 0xc560c7a0142a7a61ULL;
      sval = 0xeae6a4f3748e9467ULL;
#pragma omp atomic write release
      sflag = 1;
    }
#pragma omp section
    {
      for (long i = 79; i < 158; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0xe11ed31fad10f896ULL));
        rs += (uint64_t)i * 2u;
      }
      lx = 0xd937e311ba0bb14aULL;
    }
#pragma omp section
    {
      for (long i = 158; i < 237; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0xc453b9b04ab77c34ULL) + ((uint64_t)(int64_t)(mv2[(long)(((uint64_t)(i) * 176u + 347u) % 8560u)])) - ((uint64_t)(int64_t)(kv8[(long)(((uint64_t)(i) * 651u + 347u) % 1532u)])));
        rs += (uint64_t)i * 23u;
      }
      lx = 0xb84c1c07a1a0522ULL;
    }
#pragma omp section
    {
      for (long i = 237; i < 316; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0x403a68ccfd5d1e1aULL) - ((uint64_t)(int64_t)(rec0[(long)(((uint64_t)(i) * 650u + 948u) % 98u)].b)));
        rs += (uint64_t)i * 30u;
      }
      lx = 0x889ea1019749f39aULL;
    }
#pragma omp section
    {
      for (long i = 316; i < 395; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0x2ba3b197dd7046d4ULL) - ((uint64_t)(int64_t)(rv11[(long)(((uint64_t)(i) * 910u + 87u) % 619u)])) + ((uint64_t)(int64_t)(gv12[(long)(((uint64_t)(i) * 325u + 895u) % 440u)])) + ((uint64_t)(int64_t)(kv1[i])) * 3u);
        rs += (uint64_t)i * 36u;
      }
      lx = 0x21b541e9654f0860ULL;
    }
#pragma omp section
    {
      for (long i = 395; i < 475; i++) {
        kv1[i] = (uint8_t)(mixv((uint64_t)(i), 0x419180484779dcfeULL) + ((uint64_t)(int64_t)(sv3[(long)(((uint64_t)(i) * 430u + 926u) % 1886u)])));
        rs += (uint64_t)i * 57u;
      }
      lx = 0x50d205799b191e2bULL;
      for (;;) { int f;
#pragma omp atomic read acquire
        f = sflag;
        if (f) break; }
      lx ^= sval;
    }
  }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 475; i++) h = hsh(h, ((uint64_t)(int64_t)(kv1[i])));
    printf("P2 kv1 %016llx\n", (unsigned long long)h); }
  printf("P2 lx %016llx rs %llu\n", (unsigned long long)lx, (unsigned long long)rs);
  }
  /* the end: every array */
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 475; i++) h = hsh(h, ((uint64_t)(int64_t)(kv1[i])));
    printf("P9 kv1 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 8560; i++) h = hsh(h, ((uint64_t)(int64_t)(mv2[i])));
    printf("P9 mv2 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 1886; i++) h = hsh(h, ((uint64_t)(int64_t)(sv3[i])));
    printf("P9 sv3 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 758; i++) h = hsh(h, ((uint64_t)(int64_t)(sv4[i])));
    printf("P9 sv4 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 1451; i++) h = hsh(h, ((uint64_t)(int64_t)(p_rv5[i])));
    printf("P9 rv5 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 1; i++) h = hsh(h, ((uint64_t)(int64_t)(p_cv6[i])));
    printf("P9 cv6 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 857; i++) h = hsh(h, ((uint64_t)(int64_t)(kv7[i])));
    printf("P9 kv7 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 1532; i++) h = hsh(h, ((uint64_t)(int64_t)(kv8[i])));
    printf("P9 kv8 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 3; i++) h = hsh(h, ((uint64_t)(int64_t)(rv9[i])));
    printf("P9 rv9 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 3; i++) h = hsh(h, ((uint64_t)(int64_t)(rv10[i])));
    printf("P9 rv10 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 619; i++) h = hsh(h, ((uint64_t)(int64_t)(rv11[i])));
    printf("P9 rv11 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 440; i++) h = hsh(h, ((uint64_t)(int64_t)(gv12[i])));
    printf("P9 gv12 %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 98; i++) h = hsh(h, ((uint64_t)(int64_t)(rec0[i].f)));
    printf("P9 rec0.f %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 98; i++) h = hsh(h, ((uint64_t)(int64_t)(rec0[i].b)));
    printf("P9 rec0.b %016llx\n", (unsigned long long)h); }
  { uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < 98; i++) h = hsh(h, ((uint64_t)(int64_t)(rec0[i].e)));
    printf("P9 rec0.e %016llx\n", (unsigned long long)h); }
  return 0;
}

/* testsuite/fuzz/ompfuzz.c -- writes a random OpenMP C program, decided by a
   seed, for differential testing against GCC's libgomp.

   Usage: ompfuzz [-n] [-f] [-s] [-A] [-p PHASES] SEED > prog.c

   The program is race-free by OpenMP's rules and its output does not depend
   on the number of threads, nodes or the schedule: every phase writes each
   element of its targets from exactly one iteration, from data that no one
   writes in that phase, or combines values with commutative operations
   whose result is exact (integers modulo 2^k, floating-point values that
   are small integers or powers of two), and prints hashes of what it wrote.
   Running it on GCC's libgomp and on this runtime must give the same text.

   Data comes in every kind a program has: globals, static locals, heap from
   malloc, calloc and realloc, main's stack arrays (also passed to functions
   holding the region), arrays of structs with sub-word fields (different
   fields written by concurrent loops), int8/int16 arrays whose neighbouring
   elements different threads write, and pointers into all of these.

   Constructs: parallel (with num_threads, if, proc_bind and default
   clauses), for with every schedule (nowait chains, barriers, collapse,
   simd, firstprivate, lastprivate, ordered), reductions of every operator
   and type, sections (with simd loops inside), single with copyprivate or
   nowait, master and masked, critical (named and not), flush, atomic
   read/write/update/capture with every memory order GCC 12 accepts, tasks
   with dependences (in, out, inout, mutexinoutset), taskwait, taskgroup,
   taskyield, taskloop (grainsize, num_tasks, reduction), threadprivate
   with copyin, locks and nestable locks.

   Options enable patterns that a runtime may legitimately be slow at or
   that stress its corners (the testsuite runs its fixed seeds with and
   without them):
     -n  several nowait loops with dynamic or guided schedules in a row
         (otherwise at most one per region is nowait with such a schedule);
     -f  data handed between threads through release/acquire atomic flags;
     -s  sections that wait on an earlier section through an atomic flag
         (a conforming runtime may run them one after the other on one
         thread only in order, which every runtime known here does);
     -A  schedule(auto): GCC turns "parallel" with a lone "for
         schedule(auto)" into GOMP_parallel_loop_static and never ends the
         construct, so the runtime must not wait for that work share to
         end (otherwise schedule(runtime) is written);
     -p  number of phases (default: random, 6 to 14).  */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs;
static unsigned long rnd(unsigned long n)
{
  rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
  return n ? (unsigned long)((rs >> 11) % n) : 0;
}
static uint64_t rnd64(void) { rnd(1); return rs * 0x2545F4914F6CDD1DULL; }
static int chance(int pct) { return (int)rnd(100) < pct; }

static int opt_nowait_dyn, opt_flags, opt_sec_wait, opt_auto;

/* Two output streams: declarations and functions, then main's body.  */
static char *top_buf, *main_buf;
static size_t top_len, main_len;
static FILE *top, *mn;

enum { T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_F32, T_F64, NTY };
static const char *tname[NTY] = { "int8_t", "uint8_t", "int16_t", "uint16_t",
  "int32_t", "uint32_t", "int64_t", "uint64_t", "float", "double" };
static int is_float(int t) { return t >= T_F32; }
static int is_signed(int t) { return t == T_I8 || t == T_I16 || t == T_I32 || t == T_I64; }

enum { K_GLOBAL, K_STATIC, K_MALLOC, K_CALLOC, K_REALLOC, K_STACK, K_FIELD };

struct arr {
  char name[32];     /* array name, or the struct array's name for a field */
  char field[8];     /* field name for K_FIELD */
  char alias[32];    /* a function parameter standing for the array, or "" */
  int ty, kind, has_ptr;
  int global;        /* reachable by name from any function */
  long n;
  int busy;          /* written in the current region */
};
#define MAXA 32
static struct arr arrs[MAXA];
static int narr;
static int nstructs;
static int ph;                 /* current phase number */
static int in_fn_mode;         /* inside a generated function: main's locals out of reach */
static int fn_count;           /* generated functions */
static int tp_count;           /* threadprivate variables */

/* The struct with sub-word fields; different fields are different memory
   locations, written by different threads at once.  */
static const char *sfields[] = { "a", "b", "c", "d", "e", "f", "g", "h", "k" };
static const int sftypes[] = { T_I8, T_U8, T_I16, T_U16, T_I32, T_F32, T_I64, T_F64, T_U8 };
#define NSF 9

/* Access to element IDX (a C expression) of A, into BUF.  */
static const char *acc(const struct arr *a, const char *idx, char *buf, int via_ptr)
{
  const char *base = a->alias[0] ? a->alias : a->name;
  char pbuf[40];
  if (!a->alias[0] && a->has_ptr && (via_ptr || (in_fn_mode && !a->global))) {
    snprintf(pbuf, sizeof pbuf, "p_%s", a->name);
    base = pbuf;
  }
  if (a->kind == K_FIELD)
    sprintf(buf, "%s[%s].%s", base, idx, a->field);
  else
    sprintf(buf, "%s[%s]", base, idx);
  return buf;
}
#define ACC(a, idx, buf) acc(a, idx, buf, chance(40))

/* The element as uint64_t.  */
static const char *ld(const struct arr *a, const char *idx, char *buf)
{
  char e[200];
  ACC(a, idx, e);
  if (a->ty == T_U64)
    sprintf(buf, "(%s)", e);
  else
    sprintf(buf, "((uint64_t)(int64_t)(%s))", e);
  return buf;
}

/* A uint64_t value V stored into type T: floats keep values exact.  */
static const char *st(int t, const char *v, char *buf)
{
  if (t == T_F32)
    sprintf(buf, "(float)((%s) & 0xffffffULL)", v);
  else if (t == T_F64)
    sprintf(buf, "(double)((%s) & 0xfffffffffffffULL)", v);
  else
    sprintf(buf, "(%s)(%s)", tname[t], v);
  return buf;
}

static void add_array(int kind, int ty, long n)
{
  struct arr *a = &arrs[narr++];
  snprintf(a->name, sizeof a->name, "%cv%d", "gsmcrkf"[kind], narr);
  a->kind = kind;
  a->ty = ty;
  a->n = n;
  a->has_ptr = chance(40);
  a->global = kind == K_GLOBAL;
}

static long rand_size(void)
{
  switch (rnd(10)) {
  case 0: return 1 + rnd(4);
  case 1: return 5 + rnd(30);
  case 2: case 3: return 4096 + rnd(9000);
  default: return 64 + rnd(2000);
  }
}

/* Declares every array and initialises it in main, serially.  */
static void gen_data(void)
{
  int i, nplain = 6 + rnd(6);
  for (i = 0; i < nplain; i++) {
    int kind = (int)rnd(6);
    long n = rand_size();
    if (kind == K_STACK && n > 3000) n = 3000;
    add_array(kind, (int)rnd(NTY), n);
  }
  /* Always some sub-word arrays, written by several threads side by side.  */
  add_array((int)rnd(6), T_I8, 64 + rnd(600));
  add_array((int)rnd(6), T_I16, 64 + rnd(600));
  nstructs = 1 + rnd(2);
  for (i = 0; i < nstructs; i++) {
    int kind = (int)rnd(6), f, nf = 3 + rnd(NSF - 2);
    long n = 8 + rnd(500);
    char sname[16];
    int has_ptr = chance(50);
    if (kind == K_STATIC) kind = K_GLOBAL;
    snprintf(sname, sizeof sname, "rec%d", i);
    switch (kind) {
    case K_GLOBAL: fprintf(top, "static struct rec %s[%ld];\n", sname, n); break;
    case K_STACK: fprintf(mn, "  struct rec %s[%ld];\n  memset(%s, 0, sizeof %s);\n",
			  sname, n, sname, sname); break;
    case K_CALLOC: fprintf(mn, "  struct rec *%s = calloc(%ld, sizeof *%s);\n", sname, n, sname); break;
    default:
      fprintf(mn, "  struct rec *%s = malloc(%ld * sizeof *%s);\n  memset(%s, 0, %ld * sizeof *%s);\n",
	      sname, n, sname, sname, n, sname);
      kind = K_MALLOC;
    }
    if (has_ptr) {
      fprintf(top, "static struct rec *p_%s;\n", sname);
      fprintf(mn, "  p_%s = &%s[0];\n", sname, sname);
    }
    for (f = 0; f < nf && narr < MAXA; f++) {
      int fi = (int)rnd(NSF), j, dup = 0;
      for (j = 0; j < narr; j++)
	if (arrs[j].kind == K_FIELD && !strcmp(arrs[j].name, sname) &&
	    !strcmp(arrs[j].field, sfields[fi])) dup = 1;
      if (dup) continue;
      struct arr *a = &arrs[narr++];
      strcpy(a->name, sname);
      strcpy(a->field, sfields[fi]);
      a->kind = K_FIELD;
      a->ty = sftypes[fi];
      a->n = n;
      a->has_ptr = has_ptr;
      a->global = kind == K_GLOBAL;
    }
  }
  for (i = 0; i < narr; i++) {
    struct arr *a = &arrs[i];
    char b1[200], b2[200], v[100];
    if (a->kind == K_FIELD) continue;
    switch (a->kind) {
    case K_GLOBAL:
      fprintf(top, "static %s %s[%ld];\n", tname[a->ty], a->name, a->n); break;
    case K_STATIC:
      fprintf(mn, "  static %s %s[%ld];\n", tname[a->ty], a->name, a->n); break;
    case K_STACK:
      fprintf(mn, "  %s %s[%ld];\n", tname[a->ty], a->name, a->n); break;
    case K_MALLOC:
      fprintf(mn, "  %s *%s = malloc(%ld * sizeof(%s));\n", tname[a->ty], a->name, a->n, tname[a->ty]); break;
    case K_CALLOC:
      fprintf(mn, "  %s *%s = calloc(%ld, sizeof(%s));\n", tname[a->ty], a->name, a->n, tname[a->ty]); break;
    case K_REALLOC:
      fprintf(mn, "  %s *%s = malloc(%ld * sizeof(%s));\n", tname[a->ty], a->name,
	      a->n / 2 + 1, tname[a->ty]); break;
    }
    if (a->has_ptr)
      fprintf(top, "static %s *p_%s;\n", tname[a->ty], a->name);
    if (a->kind == K_CALLOC) {
      if (a->has_ptr) fprintf(mn, "  p_%s = %s;\n", a->name, a->name);
      continue;
    }
    snprintf(v, sizeof v, "mixv((uint64_t)i, 0x%llxULL)", (unsigned long long)rnd64());
    if (a->kind == K_REALLOC) {
      /* Filled at half its size, grown (realloc moves it, as a rule), and
	 the new part filled.  */
      fprintf(mn, "  for (long i = 0; i < %ld; i++) %s[i] = %s;\n", a->n / 2 + 1, a->name,
	      st(a->ty, v, b2));
      fprintf(mn, "  %s = realloc(%s, %ld * sizeof(%s));\n", a->name, a->name, a->n, tname[a->ty]);
      fprintf(mn, "  for (long i = %ld; i < %ld; i++) %s[i] = %s;\n", a->n / 2 + 1, a->n,
	      a->name, st(a->ty, v, b2));
    } else {
      fprintf(mn, "  for (long i = 0; i < %ld; i++) %s[i] = %s;\n", a->n, a->name,
	      st(a->ty, v, b2));
    }
    if (a->has_ptr) fprintf(mn, "  p_%s = %s;\n", a->name, a->name);
    (void)b1;
  }
}

/* A random array that is not busy (not written in the current region).  */
static struct arr *pick_free(int want_subword)
{
  int tries;
  for (tries = 0; tries < 200; tries++) {
    struct arr *a = &arrs[rnd(narr)];
    if (a->busy) continue;
    if (want_subword && !(a->ty <= T_U16)) continue;
    return a;
  }
  for (tries = 0; tries < narr; tries++)
    if (!arrs[tries].busy) return &arrs[tries];
  return NULL;
}

static struct arr *pick_src(void)
{
  return pick_free(0);
}

/* The value written to element I (a C expression) of target T, reading only
   non-busy arrays and T's own element I.  */
static void valexpr(struct arr *t, const char *i, char *out)
{
  char b[300], idx[120];
  int k, nt = (int)rnd(3);
  int p = sprintf(out, "mixv((uint64_t)(%s), 0x%llxULL)", i, (unsigned long long)rnd64());
  for (k = 0; k < nt; k++) {
    struct arr *s = pick_src();
    if (!s) break;
    snprintf(idx, sizeof idx, "(long)(((uint64_t)(%s) * %luu + %luu) %% %ldu)", i,
	     rnd(1000), rnd(1000), s->n);
    p += sprintf(out + p, " %c %s", "+-^"[rnd(3)], ld(s, idx, b));
  }
  if (t && chance(40)) {
    ld(t, i, b);
    p += sprintf(out + p, " + %s * 3u", b);
  }
}

static void hash_print(struct arr *a)
{
  char b[300];
  fprintf(mn, "  { uint64_t h = 1469598103934665603ULL;\n"
	  "    for (long i = 0; i < %ld; i++) h = hsh(h, %s);\n"
	  "    printf(\"P%d %s%s%s %%016llx\\n\", (unsigned long long)h); }\n",
	  a->n, ld(a, "i", b), ph, a->name, a->kind == K_FIELD ? "." : "", a->field);
}

static int sched_monotonic;     /* ordered loops: no nonmonotonic modifier */
static const char *sched(int subword, int *dynamic)
{
  static char b[64];
  int c = 1 + (int)rnd(subword ? 3 : 17);
  const char *mod = chance(20) ? (chance(50) || sched_monotonic ? "monotonic:" : "nonmonotonic:") : "";
  *dynamic = 0;
  switch (rnd(9)) {
  case 0: return "";
  case 1: return "schedule(static)";
  case 2: snprintf(b, sizeof b, "schedule(static,%d)", c); return b;
  case 3: *dynamic = 1; snprintf(b, sizeof b, "schedule(%sdynamic)", mod); return b;
  case 4: *dynamic = 1; snprintf(b, sizeof b, "schedule(%sdynamic,%d)", mod, c); return b;
  case 5: *dynamic = 1; snprintf(b, sizeof b, "schedule(guided,%d)", c); return b;
  case 6: *dynamic = 1; return "schedule(guided)";
  case 7: *dynamic = 1; return opt_auto ? "schedule(auto)" : "schedule(runtime)";
  default: *dynamic = 1; return "schedule(runtime)";
  }
}

/* The header of a loop over [0, N) with variable VAR; several forms.  */
static void loop_head(FILE *o, const char *var, long n, const char *pad)
{
  switch (rnd(5)) {
  case 0: fprintf(o, "%sfor (long %s = 0; %s < %ld; %s++)\n", pad, var, var, n, var); break;
  case 1: fprintf(o, "%sfor (long %s = %ld; %s >= 0; %s--)\n", pad, var, n - 1, var, var); break;
  case 2: fprintf(o, "%sfor (unsigned %s = 0; %s < %ldu; %s += 1)\n", pad, var, var, n, var); break;
  case 3: fprintf(o, "%sfor (int %s = 0; %s <= %ld; %s++)\n", pad, var, var, n - 1, var); break;
  default: fprintf(o, "%sfor (long %s = 0; %s < %ld; %s++)\n", pad, var, var, n, var); break;
  }
}

static void clear_busy(void)
{
  int i;
  for (i = 0; i < narr; i++) arrs[i].busy = 0;
}

/* Phase: a parallel region with a chain of for loops (nowait, barriers),
   optionally inside a function that receives some arrays as parameters.  */
static void ph_loops(void)
{
  struct arr *tg[5];
  int nl = 1 + (int)rnd(4), k, dyn_nowait = 0, in_fn = chance(30);
  FILE *o = mn;
  char b[2000], st_[2100], e[300];
  char params[400] = "", args[400] = "";
  int have_fp = chance(40), have_lp = chance(40);
  for (k = 0; k < nl; k++) {
    tg[k] = pick_free(chance(30));
    if (!tg[k]) { nl = k; break; }
    tg[k]->busy = 1;
  }
  if (!nl) return;
  fprintf(mn, "  /* phase %d: loops */\n  {\n", ph);
  for (k = 0; k < nl; k++)
    if (tg[k]->kind == K_FIELD && !tg[k]->global && !tg[k]->has_ptr) in_fn = 0;
  if (in_fn) {
    int np = 0;
    for (k = 0; k < nl; k++) {
      struct arr *a = tg[k];
      if (a->kind == K_FIELD) continue;
      snprintf(a->alias, sizeof a->alias, "q%d", np);
      np += sprintf(params + strlen(params), "%s%s *restrict %s", np ? ", " : "", tname[a->ty], a->alias) > 0;
      sprintf(args + strlen(args), "%s%s", strlen(args) ? ", " : "", a->name);
    }
    if (!np) in_fn = 0;
  }
  if (in_fn) {
    /* Struct arrays and other arrays not passed stay in reach only if
       global: read only globals' names inside the function.  Simplest: the
       function gets its targets as parameters and reads globals only.  */
    int j;
    for (j = 0; j < narr; j++)
      if (!arrs[j].busy && !(arrs[j].global || arrs[j].has_ptr))
	arrs[j].busy = 2;
    /* Struct fields reach the function through the global pointer.  */
    o = top;
    in_fn_mode = 1;
    fprintf(o, "static __attribute__((noinline)) void fn%d(%s)\n{\n", fn_count, params);
    fprintf(mn, "    fn%d(%s);\n", fn_count++, args);
  }
  if (have_fp) fprintf(o, "  uint64_t fp = 0x%llxULL;\n", (unsigned long long)rnd64());
  if (have_lp) fprintf(o, "  %suint64_t lp = 0;\n", in_fn ? "static " : "");
  {
    /* Clauses that change the team but not the result.  */
    static const char *bind[] = { "close", "spread", "master" };
    char cl[160] = "";
    if (chance(20)) sprintf(cl + strlen(cl), " num_threads(%lu)", 1 + rnd(5));
    if (chance(10)) sprintf(cl + strlen(cl), " if(%d)", (int)rnd(2));
    if (chance(10)) sprintf(cl + strlen(cl), " proc_bind(%s)", bind[rnd(3)]);
    if (chance(10)) strcat(cl, " default(shared)");
    fprintf(o, "#pragma omp parallel%s%s\n  {\n", have_fp ? " firstprivate(fp)" : "", cl);
  }
  for (k = 0; k < nl; k++) {
    struct arr *t = tg[k];
    int dyn, nowait = chance(60), simd = chance(15) && !is_float(t->ty);
    const char *s = sched(t->ty <= T_U16, &dyn);
    char sc[64];
    strcpy(sc, s);
    if (nowait && dyn) {
      if (dyn_nowait && !opt_nowait_dyn) nowait = 0;
      else dyn_nowait++;
    }
    if (have_lp && k == nl - 1) nowait = 0;
    fprintf(o, "#pragma omp for%s %s%s%s\n", simd ? " simd" : "", sc,
	    nowait ? " nowait" : "", have_lp && k == nl - 1 ? " lastprivate(lp)" : "");
    loop_head(o, "i", t->n, "    ");
    valexpr(t, "i", b);
    if (have_fp) strcat(b, " + fp");
    fprintf(o, "    {\n");
    if (have_lp && k == nl - 1)
      fprintf(o, "      lp = (uint64_t)i * 7u + 1u;\n");
    fprintf(o, "      %s = %s;\n    }\n", ACC(t, "i", e), st(t->ty, b, st_));
    if (chance(25) && k < nl - 1) {
      int j;
      fprintf(o, "#pragma omp barrier\n");
      /* After a barrier earlier targets may be read.  */
      for (j = 0; j <= k; j++) tg[j]->busy = 0;
    }
  }
  fprintf(o, "  }\n");
  if (in_fn) {
    if (have_lp) fprintf(o, "  printf(\"P%d lp %%llu\\n\", (unsigned long long)lp);\n", ph);
    fprintf(o, "}\n\n");
    in_fn_mode = 0;
  } else if (have_lp)
    fprintf(mn, "  printf(\"P%d lp %%llu\\n\", (unsigned long long)lp);\n", ph);
  for (k = 0; k < nl; k++) tg[k]->alias[0] = 0;
  for (k = 0; k < nl; k++) hash_print(tg[k]);
  fprintf(mn, "  }\n");
  clear_busy();
}

/* Phase: a loop nest with collapse(2) over a row-major view of a target.  */
static void ph_collapse(void)
{
  struct arr *t = pick_free(0);
  char b[2000], s[2100], e[300];
  long r, c;
  int dyn;
  if (!t || t->n < 4) return;
  for (r = 2; r * r <= t->n && rnd(3); r++)
    ;
  if (t->n % r) r = 1;
  c = t->n / r;
  t->busy = 1;
  fprintf(mn, "  /* phase %d: collapse */\n#pragma omp parallel for collapse(2) %s\n", ph,
	  sched(0, &dyn));
  fprintf(mn, "  for (long y = 0; y < %ld; y++)\n    for (long x = 0; x < %ld; x++) {\n", r, c);
  fprintf(mn, "      long i = y * %ld + x;\n", c);
  valexpr(t, "i", b);
  fprintf(mn, "      %s = %s;\n    }\n", ACC(t, "i", e), st(t->ty, b, s));
  hash_print(t);
  clear_busy();
}

/* A reduction variable of operator OP and type TY; its per-iteration value
   keeps the combined result exact and independent of the order.  */
struct red { int op, ty; char name[16]; };
static const char *redops[] = { "+", "-", "*", "&", "|", "^", "&&", "||", "max", "min" };

static void red_decl(FILE *o, struct red *r, int idx)
{
  int op, ty;
  for (;;) {
    op = (int)rnd(10);
    ty = (int)rnd(NTY);
    if (is_float(ty) && (op >= 3 && op <= 7)) continue;
    break;
  }
  r->op = op;
  r->ty = ty;
  snprintf(r->name, sizeof r->name, "r%d", idx);
  const char *init;
  char ib[64];
  switch (op) {
  case 2: init = "1"; break;
  case 3: init = is_signed(ty) ? "-1" : "~0ULL"; break;
  case 6: init = "1"; break;
  case 7: init = "0"; break;
  case 8: init = is_signed(ty) || is_float(ty) ? "-5" : "0"; break;
  case 9: init = ty == T_F32 ? "1e30f" : ty == T_F64 ? "1e300" : "~0ULL"; break;
  default: snprintf(ib, sizeof ib, "%lu", rnd(100)); init = ib;
  }
  if (op == 9 && is_signed(ty)) init = ty == T_I8 ? "127" : ty == T_I16 ? "32767" : "2147483647";
  fprintf(o, "  %s %s = (%s)(%s);\n", tname[ty], r->name, tname[ty], init);
}

/* The statement combining V (a uint64_t expression) into R.  */
static void red_stmt(FILE *o, struct red *r, const char *v, const char *pad)
{
  const char *t = tname[r->ty];
  switch (r->op) {
  case 0: case 1:
    if (is_float(r->ty) || is_signed(r->ty))
      fprintf(o, "%s%s %s= (%s)((%s) & 0xfffu);\n", pad, r->name, redops[r->op], t, v);
    else
      fprintf(o, "%s%s %s= (%s)(%s);\n", pad, r->name, redops[r->op], t, v);
    break;
  case 2:
    if (is_float(r->ty) || is_signed(r->ty))
      fprintf(o, "%s%s *= (%s)((%s) %% 61u == 0 ? 2 : ((%s) & 64u) ? -1 : 1);\n", pad, r->name, t, v, v);
    else
      fprintf(o, "%s%s *= (%s)((%s) | 1u);\n", pad, r->name, t, v);
    break;
  case 3: fprintf(o, "%s%s &= (%s)((%s) | 0x%llxULL);\n", pad, r->name, t, v,
		  (unsigned long long)(rnd64() | rnd64() | rnd64())); break;
  case 4: fprintf(o, "%s%s |= (%s)((%s) & 0x%llxULL);\n", pad, r->name, t, v,
		  (unsigned long long)(rnd64() & rnd64() & rnd64())); break;
  case 5: fprintf(o, "%s%s ^= (%s)(%s);\n", pad, r->name, t, v); break;
  case 6: fprintf(o, "%s%s = %s && ((%s) %% %luu != 0);\n", pad, r->name, r->name, v, 2 + rnd(3000)); break;
  case 7: fprintf(o, "%s%s = %s || ((%s) %% %luu == 0);\n", pad, r->name, r->name, v, 2 + rnd(3000)); break;
  case 8: case 9:
    fprintf(o, "%s{ %s w = %s; if (w %s %s) %s = w; }\n", pad, t,
	    is_float(r->ty) ? (r->ty == T_F32 ? "(float)((v_) & 0xffffffu)" : "(double)((v_) & 0xfffffffffffffULL)") : "(TT)(v_)",
	    r->op == 8 ? ">" : "<", r->name, r->name);
    break;
  }
}

static void red_print(FILE *o, struct red *r)
{
  if (is_float(r->ty))
    fprintf(o, "  printf(\"P%d %s %%.17g\\n\", (double)%s);\n", ph, r->name, r->name);
  else
    fprintf(o, "  printf(\"P%d %s %%llx\\n\", (unsigned long long)(int64_t)%s);\n", ph, r->name, r->name);
}

static void red_clause(char *buf, struct red *r, int nr)
{
  int k;
  buf[0] = 0;
  for (k = 0; k < nr; k++)
    sprintf(buf + strlen(buf), " reduction(%s:%s)", redops[r[k].op], r[k].name);
}

/* Writes red_stmt with V substituted (min/max need a temporary).  */
static void red_emit(FILE *o, struct red *r, const char *v, const char *pad)
{
  char tmp[4096];
  if (r->op >= 8) {
    fprintf(o, "%s{ uint64_t v_ = %s;\n", pad, v);
    /* red_stmt's text uses v_ and TT.  */
    char *buf; size_t len;
    FILE *m = open_memstream(&buf, &len);
    red_stmt(m, r, "v_", pad);
    fclose(m);
    char *p = strstr(buf, "(TT)");
    if (p) {
      snprintf(tmp, sizeof tmp, "%.*s(%s)%s", (int)(p - buf), buf, tname[r->ty], p + 4);
      fputs(tmp, o);
    } else
      fputs(buf, o);
    free(buf);
    fprintf(o, "%s}\n", pad);
  } else
    red_stmt(o, r, v, pad);
}

/* Phase: reductions on a parallel for, a for inside a region, a simd loop,
   sections or a taskloop.  */
static void ph_reduce(void)
{
  struct red r[5];
  int nr = 1 + (int)rnd(4), k, form = (int)rnd(5), dyn;
  long n = 1 + rnd(3000);
  char cl[400], v[2000];
  fprintf(mn, "  /* phase %d: reduction */\n  {\n", ph);
  for (k = 0; k < nr; k++) red_decl(mn, &r[k], k);
  red_clause(cl, r, nr);
  switch (form) {
  case 0: fprintf(mn, "#pragma omp parallel for %s%s\n", sched(0, &dyn), cl); break;
  case 1: fprintf(mn, "#pragma omp parallel\n#pragma omp for %s%s\n", sched(0, &dyn), cl); break;
  case 2: fprintf(mn, "#pragma omp parallel for simd %s%s\n", sched(0, &dyn), cl); break;
  case 3: fprintf(mn, "#pragma omp parallel\n#pragma omp single\n#pragma omp taskloop %s%s\n",
		  chance(50) ? "grainsize(7)" : "num_tasks(5)", cl); break;
  default: fprintf(mn, "#pragma omp parallel%s\n  {\n#pragma omp for %s\n", cl, sched(0, &dyn)); break;
  }
  loop_head(mn, "i", n, "  ");
  fprintf(mn, "  {\n");
  valexpr(NULL, "i", v);
  fprintf(mn, "    uint64_t v = %s;\n", v);
  for (k = 0; k < nr; k++) red_emit(mn, &r[k], "v", "    ");
  fprintf(mn, "  }\n");
  if (form == 4) fprintf(mn, "  }\n");
  for (k = 0; k < nr; k++) red_print(mn, &r[k]);
  fprintf(mn, "  }\n");
}

/* Phase: sections writing disjoint parts, lastprivate and reduction.  */
static void ph_sections(void)
{
  struct arr *t = pick_free(chance(30));
  int ns = 1 + (int)rnd(6), k, red = chance(50), wait = opt_sec_wait && chance(50);
  char b[2000], s[2100], e[300];
  if (!t) return;
  t->busy = 1;
  fprintf(mn, "  /* phase %d: sections */\n  {\n  uint64_t lx = 0, rs = 0;\n", ph);
  if (wait) fprintf(mn, "  int sflag = 0; uint64_t sval = 0;\n");
  if (chance(50))
    fprintf(mn, "#pragma omp parallel sections lastprivate(lx)%s\n  {\n", red ? " reduction(+:rs)" : "");
  else
    fprintf(mn, "#pragma omp parallel\n#pragma omp sections lastprivate(lx)%s\n  {\n", red ? " reduction(+:rs)" : "");
  for (k = 0; k < ns; k++) {
    long lo = t->n * k / ns, hi = t->n * (k + 1) / ns;
    fprintf(mn, "#pragma omp section\n    {\n");
    if (chance(25))
      fprintf(mn, "#pragma omp simd%s\n", red ? " reduction(+:rs)" : "");
    fprintf(mn, "      for (long i = %ld; i < %ld; i++) {\n", lo, hi);
    valexpr(t, "i", b);
    fprintf(mn, "        %s = %s;\n", ACC(t, "i", e), st(t->ty, b, s));
    if (red) fprintf(mn, "        rs += (uint64_t)i * %luu;\n", rnd(100));
    fprintf(mn, "      }\n      lx = 0x%llxULL;\n", (unsigned long long)rnd64());
    if (wait && k == 0)
      fprintf(mn, "      sval = 0x%llxULL;\n#pragma omp atomic write release\n      sflag = 1;\n",
	      (unsigned long long)rnd64());
    if (wait && k == ns - 1 && k > 0) {
      fprintf(mn, "      for (;;) { int f;\n#pragma omp atomic read acquire\n        f = sflag;\n"
	      "        if (f) break; }\n      lx ^= sval;\n");
    }
    fprintf(mn, "    }\n");
  }
  fprintf(mn, "  }\n");
  hash_print(t);
  fprintf(mn, "  printf(\"P%d lx %%016llx rs %%llu\\n\", (unsigned long long)lx, (unsigned long long)rs);\n  }\n", ph);
  clear_busy();
}

/* Phase: single with copyprivate, or master/masked then a barrier, then a
   loop using the values.  */
static void ph_single(void)
{
  struct arr *t = pick_free(0), *s;
  char b[2000], st_[2100], e[300], ld_[300], idx[100];
  int form = (int)rnd(4), dyn;
  if (!t) return;
  t->busy = 1;
  s = pick_src();
  fprintf(mn, "  /* phase %d: single/master */\n  {\n", ph);
  if (form != 0) fprintf(mn, "  uint64_t bc = 0;\n");
  fprintf(mn, "#pragma omp parallel\n  {\n");
  if (form == 0) fprintf(mn, "    uint64_t bc, bd;\n");
  snprintf(idx, sizeof idx, "%ld", s ? (long)rnd(s->n) : 0L);
  switch (form) {
  case 0:
    fprintf(mn, "#pragma omp single copyprivate(bc, bd)\n    { bc = 0x%llxULL + %s; bd = bc * 5u; }\n",
	    (unsigned long long)rnd64(), s ? ld(s, idx, ld_) : "0");
    break;
  case 1:
    fprintf(mn, "#pragma omp master\n    bc = 0x%llxULL + %s;\n#pragma omp barrier\n",
	    (unsigned long long)rnd64(), s ? ld(s, idx, ld_) : "0");
    break;
  case 3:
    fprintf(mn, "#pragma omp single nowait\n    bc = 0x%llxULL + %s;\n#pragma omp flush\n#pragma omp barrier\n",
	    (unsigned long long)rnd64(), s ? ld(s, idx, ld_) : "0");
    break;
  default:
    fprintf(mn, "#pragma omp masked%s\n    bc = 0x%llxULL + %s;\n#pragma omp barrier\n",
	    chance(50) ? " filter(0)" : "", (unsigned long long)rnd64(), s ? ld(s, idx, ld_) : "0");
  }
  fprintf(mn, "#pragma omp for %s\n", sched(t->ty <= T_U16, &dyn));
  loop_head(mn, "i", t->n, "    ");
  valexpr(t, "i", b);
  strcat(b, form == 0 ? " + bc - bd" : " + bc");
  fprintf(mn, "      %s = %s;\n  }\n", ACC(t, "i", e), st(t->ty, b, st_));
  hash_print(t);
  fprintf(mn, "  }\n");
  clear_busy();
}

/* Phase: critical sections (named and not) and locks around commutative
   updates of shared accumulators.  */
static void ph_critical(void)
{
  long n = 1 + rnd(2000);
  char v[2000];
  int dyn, lock = chance(50), nest = chance(30);
  fprintf(mn, "  /* phase %d: critical/locks */\n  {\n  uint64_t c0 = 1, c1 = 2, c2 = 3, c3 = 4;\n", ph);
  fprintf(mn, "  uint8_t c8 = 0; int16_t c16 = 0;\n");
  if (lock) fprintf(mn, "  omp_init_lock(&lk);\n");
  if (nest) fprintf(mn, "  omp_init_nest_lock(&nlk);\n");
  fprintf(mn, "#pragma omp parallel for %s\n", sched(0, &dyn));
  loop_head(mn, "i", n, "  ");
  fprintf(mn, "  {\n");
  valexpr(NULL, "i", v);
  fprintf(mn, "    uint64_t v = %s;\n", v);
  fprintf(mn, "#pragma omp critical\n    { c0 += v; c8 += (uint8_t)v; }\n");
  fprintf(mn, "#pragma omp critical (n%d)\n    { c1 ^= v * 3u; c16 += (int16_t)(v & 0xff); }\n", ph);
  if (lock) fprintf(mn, "    omp_set_lock(&lk); c2 += v >> 3; omp_unset_lock(&lk);\n");
  else if (chance(50)) fprintf(mn, "    while (!omp_test_lock(&lk2)) ; c2 += v >> 3; omp_unset_lock(&lk2);\n");
  if (nest)
    fprintf(mn, "    omp_set_nest_lock(&nlk); omp_set_nest_lock(&nlk); c3 ^= v; omp_unset_nest_lock(&nlk); omp_unset_nest_lock(&nlk);\n");
  fprintf(mn, "  }\n");
  if (lock) fprintf(mn, "  omp_destroy_lock(&lk);\n");
  if (nest) fprintf(mn, "  omp_destroy_nest_lock(&nlk);\n");
  fprintf(mn, "  printf(\"P%d c %%llx %%llx %%llx %%llx %%d %%d\\n\", (unsigned long long)c0, (unsigned long long)c3, "
	  "(unsigned long long)c1, (unsigned long long)c2, (int)c8, (int)c16);\n  }\n", ph);
}

/* Phase: atomics of every kind and memory order on shared counters of every
   width, on elements of an array that many iterations hit, and atomic
   writes then reads of every element.  */
static void ph_atomic(void)
{
  static const char *ord_upd[] = { "", " relaxed", " seq_cst", " acq_rel", " release", " acquire" };
  static const char *ord_rd[] = { "", " relaxed", " seq_cst", " acquire", " acq_rel" };
  static const char *ord_wr[] = { "", " relaxed", " seq_cst", " release", " acq_rel" };
  long n = 1 + rnd(2000);
  int k, na = 2 + (int)rnd(4), dyn, ty[8];
  struct arr *t = pick_free(chance(50)), *w = NULL;
  long m = 1 + rnd(7);
  char v[2000], e[300], ix[64];
  fprintf(mn, "  /* phase %d: atomic */\n  {\n  uint64_t csum = 0, csum2 = 0;\n", ph);
  for (k = 0; k < na; k++) {
    ty[k] = (int)rnd(NTY);
    fprintf(mn, "  %s a%d = (%s)%lu;\n", tname[ty[k]], k, tname[ty[k]], rnd(50));
  }
  if (t) { t->busy = 1; if (m > t->n) m = t->n; }
  if (chance(60)) { w = pick_free(0); if (w) w->busy = 1; }
  fprintf(mn, "#pragma omp parallel reduction(+:csum, csum2)\n  {\n");
  fprintf(mn, "#pragma omp for %s%s\n", sched(0, &dyn), w ? " nowait" : "");
  loop_head(mn, "i", n, "    ");
  fprintf(mn, "    {\n");
  valexpr(NULL, "i", v);
  fprintf(mn, "      uint64_t v = %s;\n", v);
  for (k = 0; k < na; k++) {
    const char *T = tname[ty[k]];
    int kind = (int)rnd(4);
    if (kind == 0 || (kind == 3 && is_float(ty[k])))
      fprintf(mn, "#pragma omp atomic%s%s\n      a%d += (%s)(v & 0xffu);\n",
	      chance(50) ? " update" : "", ord_upd[rnd(6)], k, T);
    else if (kind == 1) {
      fprintf(mn, "      { %s w;\n#pragma omp atomic capture%s\n", T, ord_upd[rnd(6)]);
      switch (rnd(3)) {
      case 0: fprintf(mn, "        { w = a%d; a%d += 1; }\n", k, k); break;
      case 1: fprintf(mn, "        { a%d += 1; w = a%d; }\n", k, k); break;
      default: fprintf(mn, "        w = a%d++;\n", k);
      }
      fprintf(mn, "        csum += (uint64_t)(int64_t)w; }\n");
    } else if (kind == 2 && !is_float(ty[k]))
      fprintf(mn, "#pragma omp atomic%s\n      a%d ^= (%s)v;\n", ord_upd[rnd(6)], k, T);
    else if (!is_float(ty[k]))
      fprintf(mn, "#pragma omp atomic%s\n      a%d %s= (%s)(v %s 0x%llxULL);\n", ord_upd[rnd(6)], k,
	      chance(50) ? "|" : "&", T, chance(50) ? "|" : "&", (unsigned long long)rnd64());
    else
      fprintf(mn, "#pragma omp atomic%s\n      a%d += (%s)(v & 0xffu);\n", ord_upd[rnd(6)], k, T);
  }
  if (t) {
    snprintf(ix, sizeof ix, "(i %% %ld) * %ld", m, t->n / m);
    fprintf(mn, "#pragma omp atomic%s\n      %s += (%s)(v & 0xfu);\n", ord_upd[rnd(6)],
	    ACC(t, ix, e), tname[t->ty]);
  }
  fprintf(mn, "    }\n");
  if (w) {
    char b[300], s[2100], vv[2000];
    fprintf(mn, "#pragma omp for %s\n", sched(0, &dyn));
    loop_head(mn, "i", w->n, "    ");
    valexpr(NULL, "i", vv);
    fprintf(mn, "    {\n#pragma omp atomic write%s\n      %s = %s;\n    }\n", ord_wr[rnd(5)],
	    ACC(w, "i", e), st(w->ty, vv, s));
    fprintf(mn, "#pragma omp for %s\n", sched(0, &dyn));
    loop_head(mn, "i", w->n, "    ");
    snprintf(ix, sizeof ix, "(i * 13 + 5) %% %ld", w->n);
    fprintf(mn, "    { %s x;\n#pragma omp atomic read%s\n      x = %s;\n      csum2 += (uint64_t)(int64_t)x * (uint64_t)(i + 1); }\n",
	    tname[w->ty], ord_rd[rnd(5)], ACC(w, ix, b));
  }
  fprintf(mn, "  }\n");
  for (k = 0; k < na; k++) {
    if (is_float(ty[k]))
      fprintf(mn, "  printf(\"P%d a%d %%.17g\\n\", (double)a%d);\n", ph, k, k);
    else
      fprintf(mn, "  printf(\"P%d a%d %%llx\\n\", (unsigned long long)(int64_t)a%d);\n", ph, k, k);
  }
  fprintf(mn, "  printf(\"P%d csum %%llx %%llx\\n\", (unsigned long long)csum, (unsigned long long)csum2);\n", ph);
  if (t) hash_print(t);
  if (w) hash_print(w);
  fprintf(mn, "  }\n");
  clear_busy();
}

/* Phase (option -f): data handed from one thread to another through a
   release store and an acquire load of a flag.  */
static void ph_flag(void)
{
  struct arr *t = pick_free(0);
  char b[2000], s[2100], e[300], ld_[300];
  static const char *rel[] = { "release", "seq_cst", "acq_rel" };
  static const char *acq[] = { "acquire", "seq_cst", "acq_rel" };
  if (!t) return;
  t->busy = 1;
  fprintf(mn, "  /* phase %d: release/acquire flag */\n  {\n  int flag = 0; uint64_t got = 0;\n", ph);
  fprintf(mn, "#pragma omp parallel\n  {\n    int me = omp_get_thread_num(), nt = omp_get_num_threads();\n");
  fprintf(mn, "    if (me == 0) {\n      for (long i = 0; i < %ld; i++)\n", t->n);
  valexpr(t, "i", b);
  fprintf(mn, "        %s = %s;\n", ACC(t, "i", e), st(t->ty, b, s));
  fprintf(mn, "#pragma omp atomic write %s\n      flag = 1;\n    }\n", rel[rnd(3)]);
  fprintf(mn, "    if (me == nt - 1) {\n      int f;\n      do {\n#pragma omp atomic read %s\n"
	  "        f = flag;\n      } while (!f);\n", acq[rnd(3)]);
  fprintf(mn, "      uint64_t h = 1;\n      for (long i = 0; i < %ld; i++) h = hsh(h, %s);\n      got = h;\n    }\n  }\n",
	  t->n, ld(t, "i", ld_));
  fprintf(mn, "  printf(\"P%d got %%016llx\\n\", (unsigned long long)got);\n", ph);
  hash_print(t);
  fprintf(mn, "  }\n");
  clear_busy();
}

/* Phase: an ordered loop hashing values in iteration order.  */
static void ph_ordered(void)
{
  struct arr *t = pick_free(0);
  char b[2000], s[2100], e[300], l[300];
  int dyn;
  if (!t) return;
  t->busy = 1;
  fprintf(mn, "  /* phase %d: ordered */\n  {\n  uint64_t oh = 7;\n", ph);
  sched_monotonic = 1;
  fprintf(mn, "#pragma omp parallel for ordered %s\n", sched(0, &dyn));
  sched_monotonic = 0;
  fprintf(mn, "  for (long i = 0; i < %ld; i++) {\n", t->n > 800 ? 800 : t->n);
  valexpr(t, "i", b);
  fprintf(mn, "    %s = %s;\n", ACC(t, "i", e), st(t->ty, b, s));
  fprintf(mn, "#pragma omp ordered\n    oh = hsh(oh, %s);\n  }\n", ld(t, "i", l));
  fprintf(mn, "  printf(\"P%d oh %%016llx\\n\", (unsigned long long)oh);\n", ph);
  hash_print(t);
  fprintf(mn, "  }\n");
  clear_busy();
}

/* Phase: tasks with dependences on cells; the dependences order every pair
   of tasks that touch a cell, so the result is that of the serial order.  */
static void ph_tasks(void)
{
  int nc = 2 + (int)rnd(10), nt = 4 + (int)rnd(60), k, tg = chance(40);
  struct arr *t = pick_free(0);
  char b[300], e[300], s[2100];
  fprintf(mn, "  /* phase %d: tasks */\n  {\n  uint64_t cell[%d];\n", ph, nc);
  fprintf(mn, "  for (int c = 0; c < %d; c++) cell[c] = 0x%llxULL + (uint64_t)c;\n", nc,
	  (unsigned long long)rnd64());
  if (t) t->busy = 1;
  fprintf(mn, "#pragma omp parallel\n#pragma omp single\n  {\n");
  if (tg) fprintf(mn, "#pragma omp taskgroup\n  {\n");
  for (k = 0; k < nt; k++) {
    int a = (int)rnd(nc), c = (int)rnd(nc);
    unsigned long kk = rnd(1000);
    switch (rnd(5)) {
    case 0:
      fprintf(mn, "#pragma omp task depend(inout: cell[%d]) depend(in: cell[%d])\n"
	      "    cell[%d] = cell[%d] * 3u + cell[%d] + %luu;\n", a, c, a, a, c, kk);
      break;
    case 1:
      if (a == c) c = (c + 1) % nc;
      fprintf(mn, "#pragma omp task depend(out: cell[%d]) depend(in: cell[%d])\n"
	      "    cell[%d] = mixv(cell[%d], %luu);\n", a, c, a, c, kk);
      break;
    case 2:
      /* mutexinoutset: commutative updates, in any order, one at a time.  */
      fprintf(mn, "#pragma omp task depend(mutexinoutset: cell[%d])\n    cell[%d] += %luu;\n", a, a, kk);
      break;
    case 3:
      fprintf(mn, "#pragma omp task depend(inout: cell[%d])\n"
	      "    { uint64_t k_ = %luu;\n      cell[%d] ^= k_ << 3;\n"
	      "#pragma omp task depend(inout: cell[%d])\n      cell[%d] += 1;\n"
	      "#pragma omp taskwait\n    }\n", a, kk, a, a, a);
      break;
    default:
      fprintf(mn, "#pragma omp task depend(inout: cell[%d]) depend(inout: cell[%d])\n"
	      "    { uint64_t x = cell[%d]; cell[%d] = cell[%d] + %luu; cell[%d] = x; }\n",
	      a, c, a, a, c, kk, c);
    }
    if (chance(8)) fprintf(mn, "#pragma omp taskwait\n");
  }
  if (t) {
    /* Tasks writing disjoint chunks of an array, then a taskwait.  */
    long ch = 1 + rnd(200);
    char v[2000];
    fprintf(mn, "    for (long c0 = 0; c0 < %ld; c0 += %ld)\n#pragma omp task firstprivate(c0)\n", t->n, ch);
    fprintf(mn, "      for (long i = c0; i < c0 + %ld && i < %ld; i++)\n", ch, t->n);
    valexpr(t, "i", v);
    fprintf(mn, "        %s = %s;\n", ACC(t, "i", e), st(t->ty, v, s));
    if (chance(30)) fprintf(mn, "#pragma omp taskyield\n");
  }
  if (tg) fprintf(mn, "  }\n");
  else fprintf(mn, "#pragma omp taskwait\n");
  fprintf(mn, "  }\n");
  fprintf(mn, "  { uint64_t h = 5; for (int c = 0; c < %d; c++) h = hsh(h, cell[c]);\n"
	  "    printf(\"P%d cells %%016llx\\n\", (unsigned long long)h); }\n", nc, ph);
  if (t) hash_print(t);
  fprintf(mn, "  }\n");
  (void)b;
  clear_busy();
}

/* Phase: taskloop over a target, grainsize or num_tasks, nogroup or not.  */
static void ph_taskloop(void)
{
  struct arr *t = pick_free(chance(30));
  char v[2000], s[2100], e[300];
  int ng = chance(30);
  if (!t) return;
  t->busy = 1;
  fprintf(mn, "  /* phase %d: taskloop */\n#pragma omp parallel\n#pragma omp %s\n  {\n", ph,
	  chance(50) ? "single" : "master");
  fprintf(mn, "#pragma omp taskloop %s(%lu)%s\n", chance(50) ? "grainsize" : "num_tasks",
	  1 + rnd(40), ng ? " nogroup" : "");
  loop_head(mn, "i", t->n, "    ");
  valexpr(t, "i", v);
  fprintf(mn, "      %s = %s;\n", ACC(t, "i", e), st(t->ty, v, s));
  if (ng) fprintf(mn, "#pragma omp taskwait\n");
  fprintf(mn, "  }\n");
  hash_print(t);
  clear_busy();
}

/* Phase: threadprivate variables, copyin, and their persistence between
   two regions of the same size.  */
static void ph_threadprivate(void)
{
  struct arr *t = pick_free(0);
  char v[2000], s[2100], e[300];
  int id = tp_count++, dyn;
  if (!t) return;
  t->busy = 1;
  fprintf(top, "static uint64_t tp%d = 0x%llxULL;\n#pragma omp threadprivate(tp%d)\n", id,
	  (unsigned long long)rnd64(), id);
  fprintf(mn, "  /* phase %d: threadprivate */\n  {\n  int bad = 0;\n  tp%d += 0x%llxULL;\n", ph, id,
	  (unsigned long long)rnd64());
  fprintf(mn, "  uint64_t tpb = tp%d;\n", id);
  fprintf(mn, "#pragma omp parallel copyin(tp%d)\n  {\n#pragma omp for %s\n", id, sched(0, &dyn));
  loop_head(mn, "i", t->n, "    ");
  valexpr(t, "i", v);
  snprintf(v + strlen(v), 100, " + tp%d", id);
  fprintf(mn, "      %s = %s;\n", ACC(t, "i", e), st(t->ty, v, s));
  fprintf(mn, "    tp%d = tp%d * 3u + (uint64_t)omp_get_thread_num();\n  }\n", id, id);
  fprintf(mn, "#pragma omp parallel reduction(+:bad)\n  {\n"
	  "    bad += tp%d != tpb * 3u + (uint64_t)omp_get_thread_num();\n  }\n", id);
  fprintf(mn, "  printf(\"P%d bad %%d\\n\", bad);\n", ph);
  hash_print(t);
  fprintf(mn, "  }\n");
  clear_busy();
}

static const char preamble[] =
  "#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <string.h>\n#include <omp.h>\n\n"
  "static inline uint64_t mixv(uint64_t x, uint64_t k)\n"
  "{ x = x * 0x9E3779B97F4A7C15ULL + k; x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ULL; return x ^ (x >> 32); }\n"
  "static inline uint64_t hsh(uint64_t h, uint64_t v)\n"
  "{ return (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL + (h >> 7); }\n"
  "struct rec { int8_t a; uint8_t b; int16_t c; uint16_t d; int32_t e; float f; int64_t g; double h; uint8_t k; };\n"
  "static omp_lock_t lk, lk2;\nstatic omp_nest_lock_t nlk;\n";

static void usage(void)
{
  fprintf(stderr, "usage: ompfuzz [-n] [-f] [-s] [-A] [-p PHASES] SEED\n");
  exit(2);
}

int main(int argc, char **argv)
{
  int i, nph = -1;
  unsigned long long seed;
  char *end;
  for (i = 1; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "-n")) opt_nowait_dyn = 1;
    else if (!strcmp(argv[i], "-f")) opt_flags = 1;
    else if (!strcmp(argv[i], "-s")) opt_sec_wait = 1;
    else if (!strcmp(argv[i], "-A")) opt_auto = 1;
    else if (!strcmp(argv[i], "-p") && i + 1 < argc) nph = atoi(argv[++i]);
    else usage();
  }
  if (i != argc - 1) usage();
  seed = strtoull(argv[i], &end, 0);
  if (*end) usage();
  rs = seed * 0x9E3779B97F4A7C15ULL + 0x1234567;
  if (!rs) rs = 1;
  for (i = 0; i < 10; i++) rnd(1);
  top = open_memstream(&top_buf, &top_len);
  mn = open_memstream(&main_buf, &main_len);
  if (nph < 0) nph = 6 + (int)rnd(9);
  gen_data();
  fprintf(mn, "  omp_init_lock(&lk2);\n");
  for (ph = 0; ph < nph; ph++) {
    switch (rnd(opt_flags ? 13 : 12)) {
    case 0: case 1: case 2: ph_loops(); break;
    case 3: ph_collapse(); break;
    case 4: ph_reduce(); break;
    case 5: ph_sections(); break;
    case 6: ph_single(); break;
    case 7: ph_critical(); break;
    case 8: ph_atomic(); break;
    case 9: ph_ordered(); break;
    case 10: if (chance(50)) ph_tasks(); else ph_taskloop(); break;
    case 11: ph_threadprivate(); break;
    default: ph_flag(); break;
    }
  }
  /* A final hash of every array.  */
  fprintf(mn, "  /* the end: every array */\n");
  for (i = 0; i < narr; i++) hash_print(&arrs[i]);
  fclose(top);
  fclose(mn);
  printf("/* Generated by testsuite/fuzz/ompfuzz.c, seed %llu%s%s%s%s. */\n", seed,
	 opt_nowait_dyn ? " -n" : "", opt_flags ? " -f" : "", opt_sec_wait ? " -s" : "", opt_auto ? " -A" : "");
  fputs(preamble, stdout);
  fputs(top_buf, stdout);
  printf("\nint main(void)\n{\n");
  fputs(main_buf, stdout);
  printf("  return 0;\n}\n");
  free(top_buf);
  free(main_buf);
  return 0;
}

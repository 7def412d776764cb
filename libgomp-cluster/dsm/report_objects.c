/* report_objects.c -- the sharing report's program objects: which global,
   heap allocation site or stack each DSM block belongs to (rank 0, at
   the end of the job; see report.h).

   Globals: the plugin places the program's globals in the executable's
   shared region (the DSM's first area), so the executable's own symbol
   table (.symtab, else .dynsym), read from /proc/self/exe and moved by
   the executable's load address, names them.  Heap blocks: the call
   sites that the heap entry points recorded (dsm/report.c); each site
   is named file:line by addr2line (binutils) run once per object file
   on the caller's return address minus one (the call instruction), with
   the program's debug information; without it, the function and the
   offset.  Stack blocks: the thread stacks of the node whose part of the
   stack area holds them.  A block that several objects share goes to
   the one that covers most of it.  */

#include "dsm-int.h"
#include "report.h"
#include "report-int.h"
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The executable's load bias (0 when it is not position independent).  */
static int
exe_base (struct dl_phdr_info *info, size_t size, void *arg)
{
  *(uintptr_t *) arg = info->dlpi_addr;
  return 1;
}

/* The lowest address the executable is mapped at (what dladdr gives as
   its base).  */
static int
exe_start (struct dl_phdr_info *info, size_t size, void *arg)
{
  uintptr_t lo = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD
	&& info->dlpi_phdr[i].p_vaddr < lo)
      lo = info->dlpi_phdr[i].p_vaddr;
  *(uintptr_t *) arg = info->dlpi_addr
		       + (lo & ~(uintptr_t) (sysconf (_SC_PAGESIZE) - 1));
  return 1;
}

static char *
xstrdup (const char *s)
{
  char *p = strdup (s);
  if (!p)
    gomp_dsm_fatal ("out of memory for the sharing report");
  return p;
}

static uint32_t
add_obj (struct rp_objs *o, const char *name, int kind, uint64_t addr,
	 uint64_t size)
{
  if (o->n == o->cap)
    {
      o->cap = o->cap ? 2 * o->cap : 256;
      o->v = realloc (o->v, o->cap * sizeof *o->v);
      if (!o->v)
	gomp_dsm_fatal ("out of memory for the sharing report");
    }
  struct rp_obj *x = &o->v[o->n];
  memset (x, 0, sizeof *x);
  x->name = xstrdup (name);
  x->kind = kind;
  x->addr = addr;
  x->size = size;
  return o->n++;
}

/* Notes that object LOSER has bytes in a block of object WINNER.  */
static void
note_sharer (struct rp_objs *o, uint32_t winner, uint32_t loser)
{
  struct rp_obj *w = &o->v[winner];
  if (winner == loser || !strcmp (w->name, o->v[loser].name))
    return;
  for (uint32_t i = 0; i < w->nsharers; i++)
    if (w->sharers[i] == loser
	|| !strcmp (o->v[w->sharers[i]].name, o->v[loser].name))
      return;
  if (w->nsharers < RP_SHARERS)
    w->sharers[w->nsharers++] = loser;
}

/* Gives the blocks of UB[0..N) (sorted) that [A, A + LEN) covers to
   object ID where it covers more of them than their current object;
   the other object of such a block is noted as sharing it.  */
static void
cover (struct rp_objs *o, const uint32_t *ub, uint32_t n, uint32_t *obj,
       uint64_t *best, uintptr_t a, uint64_t len, uint32_t id)
{
  if (!len)
    return;
  uint32_t b0 = gomp_dsm_block ((void *) a);
  uint32_t b1 = gomp_dsm_block ((void *) (a + len - 1));
  if (b0 == UINT32_MAX || b1 == UINT32_MAX)
    return;
  uint32_t lo = 0, hi = n;
  while (lo < hi)
    {
      uint32_t mid = (lo + hi) / 2;
      if (ub[mid] < b0)
	lo = mid + 1;
      else
	hi = mid;
    }
  for (uint32_t i = lo; i < n && ub[i] <= b1; i++)
    {
      uintptr_t s = (uintptr_t) gomp_dsm_block_addr (ub[i]);
      uintptr_t e = s + gomp_dsm_block_len (ub[i]);
      uintptr_t os = s > a ? s : a, oe = e < a + len ? e : a + len;
      uint64_t ov = oe > os ? oe - os : 0;
      if (!ov)
	continue;
      if (ov >= best[i])
	{
	  if (obj[i] != UINT32_MAX)
	    note_sharer (o, id, obj[i]);
	  best[i] = ov;
	  obj[i] = id;
	}
      else
	note_sharer (o, obj[i], id);
    }
}

/* Adds to each global of O from FIRST on its declaration's file:line,
   which nm -l (binutils) reads from the executable's debug information;
   VALUE[I] is object FIRST + I's symbol value.  Globals without one (no
   -g, or a function's static) keep their names.  */
static void
decl_lines (struct rp_objs *o, uint32_t first, const uint64_t *value)
{
  uint32_t n = o->n - first;
  char exe_path[4096];
  ssize_t pl = readlink ("/proc/self/exe", exe_path, sizeof exe_path - 1);
  int pfd[2];
  if (!n || pl <= 0 || pipe2 (pfd, O_CLOEXEC) != 0)
    return;
  exe_path[pl] = 0;
  char *argv[] = { "nm", "-l", "--defined-only", exe_path, NULL };
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, pfd[1], 1);
  pid_t pid;
  int err = posix_spawnp (&pid, "nm", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy (&fa);
  close (pfd[1]);
  FILE *f = err == 0 ? fdopen (pfd[0], "r") : NULL;
  char line[8192];
  while (f && fgets (line, sizeof line, f))
    {
      unsigned long v;
      char *tab = strchr (line, '\t'), *end;
      if (!tab || (v = strtoul (line, &end, 16), end == line))
	continue;
      tab[strcspn (tab, "\n")] = 0;
      const char *loc = strrchr (tab + 1, '/');
      loc = loc ? loc + 1 : tab + 1;
      if (!*loc || !strchr (loc, ':'))
	continue;
      *tab = 0;
      const char *name = strrchr (line, ' ');
      for (uint32_t i = 0; name && i < n; i++)
	if (value[i] == v && !strcmp (o->v[first + i].name, name + 1))
	  {
	    char buf[8192];
	    snprintf (buf, sizeof buf, "%s (%s)", name + 1, loc);
	    free (o->v[first + i].name);
	    o->v[first + i].name = xstrdup (buf);
	  }
    }
  if (f)
    fclose (f);
  else
    close (pfd[0]);
  if (err == 0)
    {
      int status;
      while (waitpid (pid, &status, 0) < 0)
	;
    }
}

/* The globals: every sized data symbol of the executable inside the
   first area.  A function's static variable, which GCC names NAME.N,
   is shown as "NAME (static in a function)".  */
static void
globals (const uint32_t *ub, uint32_t n, uint32_t *obj, uint64_t *best,
	 struct rp_objs *o)
{
  struct gomp_dsm_area *a0 = &gomp_dsm.area[0];
  if (!a0->size)
    return;
  uintptr_t base = 0;
  dl_iterate_phdr (exe_base, &base);
  int fd = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  char *str = NULL;
  Elf64_Sym *sym = NULL;
  if (pread (fd, &eh, sizeof eh, 0) != sizeof eh
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS]
	 != ELFCLASS64 || eh.e_shentsize != sizeof *sh)
    goto out;
  sh = malloc (eh.e_shnum * sizeof *sh);
  if (!sh || pread (fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff)
	     != (ssize_t) (eh.e_shnum * sizeof *sh))
    goto out;
  int st = -1;
  for (int i = 0; i < eh.e_shnum; i++)
    if (sh[i].sh_type == SHT_SYMTAB
	|| (sh[i].sh_type == SHT_DYNSYM && st < 0))
      st = i;
  if (st < 0 || sh[st].sh_link >= eh.e_shnum)
    goto out;
  Elf64_Shdr *ss = &sh[sh[st].sh_link];
  sym = malloc (sh[st].sh_size);
  str = malloc (ss->sh_size + 1);
  if (!sym || !str
      || pread (fd, sym, sh[st].sh_size, sh[st].sh_offset)
	 != (ssize_t) sh[st].sh_size
      || pread (fd, str, ss->sh_size, ss->sh_offset) != (ssize_t) ss->sh_size)
    goto out;
  str[ss->sh_size] = 0;
  size_t ns = sh[st].sh_size / sizeof *sym;
  uintptr_t lo = (uintptr_t) a0->base, hi = lo + a0->size;
  uint32_t first = o->n, nv = 0;
  uint64_t *value = malloc ((ns ? ns : 1) * sizeof *value);
  if (!value)
    goto out;
  for (size_t i = 0; i < ns; i++)
    {
      uintptr_t a = sym[i].st_value + base;
      if (ELF64_ST_TYPE (sym[i].st_info) != STT_OBJECT || !sym[i].st_size
	  || a < lo || a >= hi || sym[i].st_name >= ss->sh_size)
	continue;
      const char *name = str + sym[i].st_name;
      char buf[4096];
      size_t len = strlen (name), d = len;
      while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
	d--;
      if (ELF64_ST_BIND (sym[i].st_info) == STB_LOCAL && d < len && d > 1
	  && name[d - 1] == '.' && d - 1 < sizeof buf - 40)
	{
	  snprintf (buf, sizeof buf, "%.*s (static in a function)",
		    (int) (d - 1), name);
	  name = buf;
	}
      uint32_t id = add_obj (o, name, RP_GLOBAL, a, sym[i].st_size);
      value[nv++] = sym[i].st_value;
      cover (o, ub, n, obj, best, a, sym[i].st_size, id);
    }
  if (o->n - first == nv)
    decl_lines (o, first, value);
  free (value);
out:
  free (sh);
  free (sym);
  free (str);
  close (fd);
}

/* Runs addr2line -f -e FILE on the N addresses ADDR, puts each answer
   (function, then file:line) into OUT[I] (malloc'ed), or leaves OUT[I]
   NULL when it said nothing useful.  */
static void
addr2line (const char *file, const uint64_t *addr, uint32_t n, char **out)
{
  for (uint32_t done = 0; done < n;)
    {
      uint32_t k = n - done < 200 ? n - done : 200;
      char **argv = calloc (k + 5, sizeof *argv);
      char (*hex)[24] = malloc (k * sizeof *hex);
      int pfd[2];
      if (!argv || !hex || pipe2 (pfd, O_CLOEXEC) != 0)
	gomp_dsm_fatal ("cannot run addr2line for the sharing report");
      argv[0] = "addr2line";
      argv[1] = "-f";
      argv[2] = "-e";
      argv[3] = (char *) file;
      for (uint32_t i = 0; i < k; i++)
	{
	  snprintf (hex[i], sizeof hex[i], "%#lx",
		    (unsigned long) addr[done + i]);
	  argv[4 + i] = hex[i];
	}
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init (&fa);
      posix_spawn_file_actions_adddup2 (&fa, pfd[1], 1);
      pid_t pid;
      int err = posix_spawnp (&pid, "addr2line", &fa, NULL, argv, environ);
      posix_spawn_file_actions_destroy (&fa);
      close (pfd[1]);
      if (err == 0)
	{
	  FILE *f = fdopen (pfd[0], "r");
	  char fn[1024], loc[4096];
	  for (uint32_t i = 0; f && i < k; i++)
	    {
	      if (!fgets (fn, sizeof fn, f) || !fgets (loc, sizeof loc, f))
		break;
	      fn[strcspn (fn, "\n")] = 0;
	      /* The plugin renames main; the program calls it main.  */
	      if (!strcmp (fn, "__ompc_user_main"))
		strcpy (fn, "main");
	      loc[strcspn (loc, "\n")] = 0;
	      char *d = strstr (loc, " (discriminator");
	      if (d)
		*d = 0;
	      char buf[5200];
	      if (strncmp (loc, "??", 2) != 0)
		{
		  const char *slash = strrchr (loc, '/');
		  snprintf (buf, sizeof buf, "%s (in %s)", slash ? slash + 1
			    : loc, fn);
		  out[done + i] = xstrdup (buf);
		}
	      else if (strcmp (fn, "??") != 0)
		{
		  snprintf (buf, sizeof buf, "%s (no line: compile with -g)",
			    fn);
		  out[done + i] = xstrdup (buf);
		}
	    }
	  if (f)
	    fclose (f);
	  else
	    close (pfd[0]);
	  int status;
	  while (waitpid (pid, &status, 0) < 0)
	    ;
	}
      else
	close (pfd[0]);
      free (argv);
      free (hex);
      done += k;
    }
}

static int
cmp_caller (const void *x, const void *y)
{
  const struct gomp_dsm_ralloc *a = *(struct gomp_dsm_ralloc *const *) x;
  const struct gomp_dsm_ralloc *b = *(struct gomp_dsm_ralloc *const *) y;
  return a->caller < b->caller ? -1 : a->caller > b->caller;
}

/* The heap: one object per call site.  */
static void
heap_sites (const uint32_t *ub, uint32_t n, uint32_t *obj, uint64_t *best,
	    struct rp_objs *o, struct gomp_dsm_ralloc *const *al,
	    uint32_t nal)
{
  if (!nal)
    return;
  struct gomp_dsm_ralloc **s = malloc (nal * sizeof *s);
  if (!s)
    gomp_dsm_fatal ("out of memory for the sharing report");
  memcpy (s, al, nal * sizeof *s);
  qsort (s, nal, sizeof *s, cmp_caller);
  /* The distinct callers, resolved per object file.  */
  uint32_t nc = 0;
  uint64_t *callers = malloc (nal * sizeof *callers);
  char **names = calloc (nal, sizeof *names);
  uint64_t *rel = malloc (nal * sizeof *rel);
  if (!callers || !names || !rel)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < nal; i++)
    if (!nc || callers[nc - 1] != s[i]->caller)
      callers[nc++] = s[i]->caller;
  uintptr_t exe = 0, bias = 0;
  dl_iterate_phdr (exe_start, &exe);
  dl_iterate_phdr (exe_base, &bias);
  /* One addr2line per object file: those of the callers in turn.  */
  bool *done = calloc (nc, sizeof *done);
  uint32_t *idx = malloc (nc * sizeof *idx);
  char **got = calloc (nc, sizeof *got);
  if (!done || !idx || !got)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < nc; i++)
    {
      if (done[i])
	continue;
      Dl_info di;
      if (!dladdr ((void *) (uintptr_t) callers[i], &di))
	{
	  done[i] = true;
	  continue;
	}
      bool is_exe = (uintptr_t) di.dli_fbase == exe;
      /* addr2line's own /proc/self/exe would be addr2line.  */
      char exe_path[4096];
      ssize_t pl = readlink ("/proc/self/exe", exe_path,
			     sizeof exe_path - 1);
      exe_path[pl > 0 ? pl : 0] = 0;
      const char *file = is_exe ? exe_path : di.dli_fname;
      uint32_t k = 0;
      for (uint32_t j = i; j < nc; j++)
	{
	  Dl_info dj;
	  if (done[j] || !dladdr ((void *) (uintptr_t) callers[j], &dj)
	      || dj.dli_fbase != di.dli_fbase)
	    continue;
	  done[j] = true;
	  idx[k] = j;
	  rel[k++] = callers[j] - 1
		     - (is_exe ? bias : (uintptr_t) di.dli_fbase);
	}
      memset (got, 0, k * sizeof *got);
      addr2line (file, rel, k, got);
      for (uint32_t j = 0; j < k; j++)
	{
	  if (!got[j])
	    {
	      char buf[1200];
	      snprintf (buf, sizeof buf, "%s+%#lx",
			is_exe ? "program" : di.dli_fname,
			(unsigned long) rel[j]);
	      got[j] = xstrdup (buf);
	    }
	  names[idx[j]] = got[j];
	}
    }
  /* Several calls on one line (p = malloc (n), q = malloc (n);) are
     told apart by their order in the code.  */
  char **renamed = calloc (nc ? nc : 1, sizeof *renamed);
  if (!renamed)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t c = 0; c < nc; c++)
    {
      uint32_t k = 0, m = 0;
      for (uint32_t d = 0; d < nc; d++)
	if (names[d] && names[c] && !strcmp (names[d], names[c]))
	  {
	    m++;
	    if (callers[d] < callers[c])
	      k++;
	  }
      if (m > 1)
	{
	  char buf[1400];
	  snprintf (buf, sizeof buf, "%s, call %u of %u on the line",
		    names[c], k + 1, m);
	  renamed[c] = xstrdup (buf);
	}
    }
  for (uint32_t c = 0; c < nc; c++)
    if (renamed[c])
      {
	free (names[c]);
	names[c] = renamed[c];
      }
  free (renamed);
  for (uint32_t i = 0, c = 0; i < nal; c++)
    {
      uint32_t j = i;
      uint64_t bytes = 0;
      while (j < nal && s[j]->caller == s[i]->caller)
	bytes += s[j++]->size;
      char buf[1400];
      snprintf (buf, sizeof buf, "%s", names[c] ? names[c] : "heap");
      uint32_t id = add_obj (o, buf, RP_HEAP, s[i]->addr, bytes);
      o->v[id].nallocs = j - i;
      for (uint32_t k = i; k < j; k++)
	cover (o, ub, n, obj, best, s[k]->addr, s[k]->size, id);
      i = j;
    }
  for (uint32_t i = 0; i < nc; i++)
    free (names[i]);
  free (names);
  free (callers);
  free (rel);
  free (done);
  free (idx);
  free (got);
  free (s);
}

uint32_t *
gomp_dsm_report_attribute (const uint32_t *ub, uint32_t n,
			   struct gomp_dsm_ralloc *const *al, uint32_t nal,
			   struct rp_objs *o)
{
  uint32_t *obj = malloc ((n ? n : 1) * sizeof *obj);
  uint64_t *best = calloc (n ? n : 1, sizeof *best);
  if (!obj || !best)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < n; i++)
    obj[i] = UINT32_MAX;
  globals (ub, n, obj, best, o);
  heap_sites (ub, n, obj, best, o, al, nal);
  /* What no object covers.  */
  uint32_t other_g = UINT32_MAX, other_h = UINT32_MAX;
  uint32_t stacks[64];
  for (int r = 0; r < 64; r++)
    stacks[r] = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++)
    {
      if (obj[i] != UINT32_MAX)
	continue;
      char *a = gomp_dsm_block_addr (ub[i]);
      if (ub[i] < gomp_dsm.area[1].first)
	{
	  if (other_g == UINT32_MAX)
	    other_g = add_obj (o, "globals without a symbol", RP_OTHER, 0,
			       0);
	  obj[i] = other_g;
	}
      else if (a >= gomp_dsm.stack_base)
	{
	  int r = (a - gomp_dsm.stack_base) / gomp_dsm.stack_part;
	  if (r >= gomp_dsm.nodes)
	    r = gomp_dsm.nodes - 1;
	  if (stacks[r] == UINT32_MAX)
	    {
	      char buf[80];
	      snprintf (buf, sizeof buf, "thread stacks of node %d", r);
	      stacks[r] = add_obj (o, buf, RP_STACK, 0, 0);
	    }
	  obj[i] = stacks[r];
	}
      else
	{
	  if (other_h == UINT32_MAX)
	    other_h = add_obj (o, "heap not allocated by the program's code",
			       RP_OTHER, 0, 0);
	  obj[i] = other_h;
	}
    }
  free (best);
  return obj;
}

/* Every heap function goes to the runtime, also through function pointers
   (in locals and in static initialisers); memory that libc allocated
   (getline, asprintf, open_memstream) can still be realloc'ed and freed.
   ompc-nodes: 1 1x2 2x1 2x2
   ompc-check: nm %exe | grep -Eq ' U ompc_malloc(@.*)?$'
   ompc-check: ! nm %exe | grep -Eq ' U (malloc|calloc|realloc|reallocarray|free|posix_memalign|aligned_alloc|memalign|valloc|strdup|strndup|malloc_usable_size)(@|$)'
   ompc-timeout: 60  */

#define _GNU_SOURCE 1
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors;
#define CHECK(cond)							\
  do { if (!(cond)) { printf ("line %d: %s\n", __LINE__, #cond);	\
		      errors++; } } while (0)

/* Function pointers in static initialisers.  */
static void *(*const alloc_fn) (size_t) = malloc;
static void (*free_fn) (void *) = free;
static struct { void *(*re) (void *, size_t); char *(*dup) (const char *); }
  table = { realloc, strdup };

int
main (void)
{
  char *p = malloc (100);
  CHECK (p != NULL);
  strcpy (p, "shared");
  int *z = calloc (1000, sizeof (int));
  CHECK (z && z[0] == 0 && z[999] == 0);
  p = realloc (p, 10000);
  CHECK (p && strcmp (p, "shared") == 0);
  z = reallocarray (z, 2000, sizeof (int));
  CHECK (z != NULL);
  volatile size_t huge = SIZE_MAX / 2;
  CHECK (reallocarray (NULL, huge, 4) == NULL);
  void *a;
  CHECK (posix_memalign (&a, 256, 1000) == 0 && ((uintptr_t) a & 255) == 0);
  void *b = aligned_alloc (64, 640);
  CHECK (b && ((uintptr_t) b & 63) == 0);
  void *c = memalign (4096, 10);
  CHECK (c && ((uintptr_t) c & 4095) == 0);
  void *d = valloc (100);
  CHECK (d && ((uintptr_t) d & 4095) == 0);
  char *s = strdup ("hello");
  char *sn = strndup ("hello world", 5);
  CHECK (strcmp (s, "hello") == 0 && strcmp (sn, "hello") == 0);
  CHECK (malloc_usable_size (p) >= 10000);

  /* Through pointers.  */
  void *(*m) (size_t) = malloc;
  void (*f) (void *) = free;
  char *q = m (32);
  strcpy (q, "x");
  q = table.re (q, 64);
  char *r = table.dup ("dup");
  CHECK (q && q[0] == 'x' && strcmp (r, "dup") == 0);
  char *t = alloc_fn (8);
  f (q);
  free_fn (r);
  free (t);

  /* Memory libc allocated.  */
  char *line = NULL;
  size_t cap = 0;
  FILE *mf = fmemopen ((char *) "one line\n", 9, "r");
  CHECK (getline (&line, &cap, mf) == 9);
  fclose (mf);
  line = realloc (line, 1000);
  CHECK (line && strncmp (line, "one line", 8) == 0);
  free (line);
  char *fmt;
  CHECK (asprintf (&fmt, "%d", 42) == 2);
  free (fmt);
  char *ms;
  size_t mslen;
  FILE *w = open_memstream (&ms, &mslen);
  fputs ("stream", w);
  fclose (w);
  CHECK (strcmp (ms, "stream") == 0);
  free (ms);

  /* Threads allocating and freeing each other's blocks.  */
  int **blocks = malloc (64 * sizeof *blocks);
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    {
      blocks[i] = malloc ((i + 1) * sizeof (int));
      for (int j = 0; j <= i; j++)
	blocks[i][j] = i;
    }
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 64; i++)
    {
      sum += blocks[63 - i][63 - i];
      free (blocks[63 - i]);
    }
  CHECK (sum == 63 * 64 / 2);
  free (blocks);

  free (p);
  free (z);
  free (a);
  free (b);
  free (c);
  free (d);
  free (s);
  free (sn);
  free (NULL);
  return errors != 0;
}

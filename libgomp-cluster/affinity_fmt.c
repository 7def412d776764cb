/* affinity_fmt.c -- the affinity format (OpenMP 5.1 sections 3.3.8-3.3.11
   and 6.14): omp_set/get_affinity_format, omp_display_affinity,
   omp_capture_affinity and the OMP_DISPLAY_AFFINITY lines.  A field is
   %[0][.][width]X or %[0][.][width]{name}; '.' right-justifies, '0' pads
   with zeros.  */

#include "libgomp.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern int omp_get_team_num (void);
extern int omp_get_num_teams (void);
extern int omp_get_thread_num (void);
extern int omp_get_num_threads (void);
extern int omp_get_level (void);
extern int omp_get_ancestor_thread_num (int);

static const struct
{
  char letter;
  const char *name;
} gomp_aff_fields[] = {
  { 't', "team_num" }, { 'T', "num_teams" }, { 'L', "nesting_level" },
  { 'n', "thread_num" }, { 'N', "num_threads" },
  { 'a', "ancestor_tnum" }, { 'H', "host" }, { 'P', "process_id" },
  { 'i', "native_thread_id" }, { 'A', "thread_affinity" },
};

/* Appends C to BUF (of SIZE, at *POS); the text is always counted, even
   past SIZE.  */
static inline void
gomp_aff_putc (char *buf, size_t size, size_t *pos, char c)
{
  if (*pos + 1 < size)
    buf[*pos] = c;
  (*pos)++;
}

/* Appends S padded to WIDTH: on the right unless RIGHT, with zeros after
   any sign when ZERO.  */
static void
gomp_aff_put (char *buf, size_t size, size_t *pos, const char *s,
	      int width, bool right, bool zero)
{
  size_t len = strlen (s);
  size_t pad = width > 0 && (size_t) width > len ? width - len : 0;
  if (right && zero && *s == '-')
    gomp_aff_putc (buf, size, pos, *s++);
  if (right)
    for (; pad; pad--)
      gomp_aff_putc (buf, size, pos, zero ? '0' : ' ');
  for (; *s; s++)
    gomp_aff_putc (buf, size, pos, *s);
  for (; pad; pad--)
    gomp_aff_putc (buf, size, pos, ' ');
}

/* The value of field LETTER for the calling thread.  */
static void
gomp_aff_value (char letter, char *val, size_t len)
{
  struct gomp_thread *thr = gomp_thread ();
  switch (letter)
    {
    case 't':
      snprintf (val, len, "%d", omp_get_team_num ());
      break;
    case 'T':
      snprintf (val, len, "%d", omp_get_num_teams ());
      break;
    case 'L':
      snprintf (val, len, "%d", omp_get_level ());
      break;
    case 'n':
      snprintf (val, len, "%d", omp_get_thread_num ());
      break;
    case 'N':
      snprintf (val, len, "%d", omp_get_num_threads ());
      break;
    case 'a':
      snprintf (val, len, "%d",
		omp_get_ancestor_thread_num (omp_get_level () - 1));
      break;
    case 'H':
      if (gethostname (val, len) != 0)
	snprintf (val, len, "unknown");
      val[len - 1] = '\0';
      break;
    case 'P':
      snprintf (val, len, "%d", (int) getpid ());
      break;
    case 'i':
      snprintf (val, len, "%d", (int) gettid ());
      break;
    case 'A':
      {
	cpu_set_t set;
	if (thr->place && gomp_place_set (thr->place))
	  set = *gomp_place_set (thr->place);
	else if (pthread_getaffinity_np (pthread_self (), sizeof set, &set))
	  CPU_ZERO (&set);
	/* "{0,1:3}" without the braces.  */
	char tmp[512];
	gomp_place_format (tmp, sizeof tmp, &set);
	size_t n = strlen (tmp);
	if (n >= 2)
	  {
	    tmp[n - 1] = '\0';
	    snprintf (val, len, "%s", tmp + 1);
	  }
	else
	  val[0] = '\0';
      }
      break;
    default:
      val[0] = '\0';
    }
}

/* Formats FMT into BUF (SIZE bytes, NUL-terminated when SIZE > 0);
   returns the length of the whole text.  */
static size_t
gomp_aff_format (char *buf, size_t size, const char *fmt)
{
  size_t pos = 0;
  char val[512];
  for (const char *p = fmt; *p; p++)
    {
      if (*p != '%')
	{
	  if (pos + 1 < size)
	    buf[pos] = *p;
	  pos++;
	  continue;
	}
      p++;
      if (*p == '%')
	{
	  if (pos + 1 < size)
	    buf[pos] = '%';
	  pos++;
	  continue;
	}
      bool zero = false, right = false;
      int width = 0;
      if (*p == '0')
	{
	  zero = true;
	  p++;
	}
      if (*p == '.')
	{
	  right = true;
	  p++;
	}
      while (*p >= '0' && *p <= '9')
	width = width * 10 + (*p++ - '0');
      char letter = 0;
      if (*p == '{')
	{
	  const char *end = strchr (p, '}');
	  if (end)
	    for (size_t k = 0; k < sizeof gomp_aff_fields
				   / sizeof gomp_aff_fields[0]; k++)
	      if (strlen (gomp_aff_fields[k].name) == (size_t) (end - p - 1)
		  && !strncmp (p + 1, gomp_aff_fields[k].name, end - p - 1))
		letter = gomp_aff_fields[k].letter;
	  if (!end || !letter)
	    gomp_fatal ("unknown field in the affinity format '%s'", fmt);
	  p = end;
	}
      else
	{
	  for (size_t k = 0; k < sizeof gomp_aff_fields
				 / sizeof gomp_aff_fields[0]; k++)
	    if (gomp_aff_fields[k].letter == *p)
	      letter = *p;
	  if (!letter)
	    gomp_fatal ("unknown field '%%%c' in the affinity format '%s'",
			*p ? *p : ' ', fmt);
	}
      gomp_aff_value (letter, val, sizeof val);
      gomp_aff_put (buf, size, &pos, val, width, right || zero, zero);
    }
  if (size)
    buf[pos < size ? pos : size - 1] = '\0';
  return pos;
}

void
gomp_affinity_format_set (const char *format)
{
  char *copy = strdup (format);
  if (!copy)
    gomp_fatal ("out of memory for the affinity format");
  gomp_affinity_format_var = copy;
  gomp_affinity_format_len = strlen (copy);
}

GOMP_EXPORT void
omp_set_affinity_format (const char *format)
{
  gomp_affinity_format_set (format);
  __atomic_add_fetch (&gomp_global_icvs_gen, 1, __ATOMIC_RELEASE);
}

GOMP_EXPORT size_t
omp_get_affinity_format (char *buffer, size_t size)
{
  size_t len = strlen (gomp_affinity_format_var);
  if (size)
    {
      size_t n = len < size ? len : size - 1;
      memcpy (buffer, gomp_affinity_format_var, n);
      buffer[n] = '\0';
    }
  return len;
}

GOMP_EXPORT size_t
omp_capture_affinity (char *buffer, size_t size, const char *format)
{
  if (!format || !*format)
    format = gomp_affinity_format_var;
  return gomp_aff_format (buffer, size, format);
}

GOMP_EXPORT void
omp_display_affinity (const char *format)
{
  char line[1024];
  if (!format || !*format)
    format = gomp_affinity_format_var;
  size_t n = gomp_aff_format (line, sizeof line - 1, format);
  if (n > sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  /* One write, so that lines of several threads do not mix.  */
  if (write (STDERR_FILENO, line, n) < 0)
    return;
}

/* OMP_DISPLAY_AFFINITY: a thread prints its line when it starts in a team
   whose level, size or its own place differs from the last it printed.  */
static __thread struct
{
  unsigned level, nthreads, place;
  bool shown;
} gomp_aff_last;

void
gomp_display_affinity_thread (void)
{
  struct gomp_thread *thr = gomp_thread ();
  unsigned n = thr->ts.team ? thr->ts.team->nthreads : 1;
  if (gomp_aff_last.shown && gomp_aff_last.level == thr->ts.level
      && gomp_aff_last.nthreads == n && gomp_aff_last.place == thr->place)
    return;
  gomp_aff_last.shown = true;
  gomp_aff_last.level = thr->ts.level;
  gomp_aff_last.nthreads = n;
  gomp_aff_last.place = thr->place;
  omp_display_affinity (NULL);
}

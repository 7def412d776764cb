/* fread of a 1 MB file into a fresh malloc'ed buffer in rank 0's serial
   main, and again after another node wrote the buffer; fgets and getline
   into shared buffers (getline's buffer must stay in the shared heap:
   every thread reads the line); fwrite and write from shared memory
   never touched by the writing node.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: stdio ok  */

#include "common.h"
#include <fcntl.h>
#include <omp.h>

#define LEN 1000000
static char line_buf[256];

static void
check_all (const unsigned char *p, size_t len)
{
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  bad += !same_as_file (p, 0, len);
  CHECK (bad == 0);
}

int
main (void)
{
  make_file (LEN);
  unsigned char *buf = malloc (LEN);
  CHECK (buf != NULL);
  FILE *f = fopen (test_path, "r");
  CHECK (f != NULL);
  CHECK (fread (buf, 1, LEN, f) == LEN);
  check_all (buf, LEN);
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    memset (buf, 0, LEN);
  rewind (f);
  CHECK (fread (buf, 1000, LEN / 1000, f) == LEN / 1000);
  check_all (buf, LEN);
  CHECK (fclose (f) == 0);

  /* Lines: a text file of 3 lines, the second long.  */
  char path2[128];
  snprintf (path2, sizeof path2, "%s/text", test_dir);
  f = fopen (path2, "w");
  CHECK (f != NULL);
  fprintf (f, "first line\n");
  for (int i = 0; i < 10000; i++)
    putc ('a' + i % 26, f);
  fprintf (f, "\nthird\n");
  CHECK (fclose (f) == 0);
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    memset (line_buf, 'x', sizeof line_buf);
  f = fopen (path2, "r");
  CHECK (f != NULL);
  CHECK (fgets (line_buf, sizeof line_buf, f) == line_buf);
  CHECK (strcmp (line_buf, "first line\n") == 0);
  char *line = malloc (16);
  size_t cap = 16;
  CHECK (getline (&line, &cap, f) == 10001);
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  for (int i = 0; i < 10000; i++)
    bad += line[i] != 'a' + i % 26;
  CHECK (bad == 0 && line[10000] == '\n' && line[10001] == 0);
  char *l2 = malloc (4);
  size_t c2 = 4;
  CHECK (getdelim (&l2, &c2, '\n', f) == 6);
#pragma omp parallel reduction(+:bad)
  bad += strcmp (l2, "third\n") != 0;
  CHECK (bad == 0);
  CHECK (getline (&l2, &c2, f) == -1);
  fclose (f);
  free (line);
  free (l2);

  /* Writing from never-touched shared memory (zeros), then from a
     buffer another node wrote last.  */
  unsigned char *zeros = malloc (LEN);
  CHECK (zeros != NULL);
  f = fopen (path2, "w");
  CHECK (f != NULL);
  CHECK (fwrite (zeros, 1, LEN, f) == LEN);
  CHECK (fclose (f) == 0);
  unsigned char *other = malloc (LEN);
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    memset (other, 0x5a, LEN);
  int fd = open (path2, O_WRONLY | O_APPEND);
  CHECK (fd >= 0);
  CHECK (write (fd, other, LEN) == LEN);
  CHECK (close (fd) == 0);
  f = fopen (path2, "r");
  CHECK (f != NULL);
  for (size_t i = 0; i < 2 * LEN; i++)
    CHECK (getc (f) == (i < LEN ? 0 : 0x5a));
  CHECK (getc (f) == EOF);
  fclose (f);
  unlink (path2);
  remove_file ();
  printf ("stdio ok\n");
  return 0;
}

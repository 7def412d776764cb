/* common.h -- helpers of the syscalls tests: a temporary file of known
   contents, and a check that fails loudly.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                     \
  do                                                                    \
    if (!(cond))                                                        \
      {                                                                 \
	fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
		 #cond);                                                \
	exit (1);                                                       \
      }                                                                 \
  while (0)

/* The byte at offset I of the test file.  */
static inline unsigned char
file_byte (size_t i)
{
  return (unsigned char) (i * 7 + i / 4096);
}

static char test_dir[64], test_path[96];

/* Creates a file of LEN bytes in a new temporary directory; its name in
   test_path.  */
static void
make_file (size_t len)
{
  strcpy (test_dir, "/tmp/ompc-sys-XXXXXX");
  CHECK (mkdtemp (test_dir) != NULL);
  snprintf (test_path, sizeof test_path, "%s/data", test_dir);
  FILE *f = fopen (test_path, "w");
  CHECK (f != NULL);
  for (size_t i = 0; i < len; i++)
    CHECK (putc (file_byte (i), f) != EOF);
  CHECK (fclose (f) == 0);
}

static void
remove_file (void)
{
  unlink (test_path);
  rmdir (test_dir);
}

/* Whether the LEN bytes at P hold the file's bytes from offset OFF.  */
static inline int
same_as_file (const unsigned char *p, size_t off, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (p[i] != file_byte (off + i))
      return 0;
  return 1;
}

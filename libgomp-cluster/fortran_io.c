/* fortran_io.c -- shared memory made accessible before libgfortran's data
   transfers (the plugin's rewrite 7, gcc-plugin/ompcluster.cc).

   An unformatted READ or WRITE of a large array or string makes
   libgfortran hand the program's memory straight to read(2) or write(2).
   With several nodes that memory may be a page of the shared segment that
   this node holds invalid (PROT_NONE) or read-only: a system call given
   it would fail with EFAULT ("Fortran runtime error: Bad address")
   instead of faulting, and the DSM would never see it.  Before each such transfer the plugin calls one of the
   functions below, which touch every page of the data as the transfer
   will use it -- a load for a WRITE statement (write(2) reads memory), an
   atomic OR of zero for a READ statement (read(2) writes it) -- so that
   the DSM's fault handler makes it accessible first.  The OR changes no
   value, so it changes nothing that another node wrote either.

   A page could become invalid again through an acquire or a release by
   another thread of this node between the touch and the system call (a
   lock or a flush, not a barrier, which needs this thread too).  The
   transfer is safe all the same: libgfortran's read(2) and write(2) calls
   reach the runtime's interposers (sys.h), which give the kernel a
   private copy; the touches only make the pages accessible in one pass,
   in the access the transfer needs.  With one node these functions
   return at once.

   Fortran units are per node: libgfortran on each rank has its own table
   of connected units.  A data transfer statement on a node other than
   rank 0 to a unit that is not connected there would make libgfortran
   connect a new file fort.N on that node, silently; ompc_gfortran_unit
   ends the job with a message instead.  */

#include "libgomp.h"
#include <dlfcn.h>
#include <stdint.h>
#include <unistd.h>

/* gfortran's array descriptor in GCC 12 (libgfortran.h): strides count
   elements of dtype.elem_len bytes.  */
struct gomp_gfc_dim
{
  intptr_t stride, lbound, ubound;
};

struct gomp_gfc_array
{
  char *data;
  size_t offset;
  struct
  {
    size_t elem_len;
    int version;
    signed char rank, type;
    signed short attribute;
  } dtype;
  intptr_t span;
  struct gomp_gfc_dim dim[];
};

#define GOMP_GFC_MAX_DIMENSIONS 15

static uintptr_t gomp_io_page;

/* Touches every page of the LEN bytes at P: for writing (READING) or for
   reading.  */
static void
gomp_io_touch (const char *p, size_t len, bool reading)
{
  if (len == 0)
    return;
  uintptr_t page = gomp_io_page;
  if (page == 0)
    page = gomp_io_page = sysconf (_SC_PAGESIZE);
  uintptr_t a = (uintptr_t) p, end = a + len;
  while (a < end)
    {
      if (reading)
	__atomic_fetch_or ((char *) a, 0, __ATOMIC_RELAXED);
      else
	(void) *(volatile const char *) a;
      a = (a & ~(page - 1)) + page;
    }
}

/* Before _gfortran_transfer_character (READING) or
   _gfortran_transfer_character_write: the LEN bytes at P.  */
GOMP_EXPORT void
ompc_gfortran_io (const void *p, size_t len, int32_t reading)
{
  if (GOMP_LIKELY (gomp_cluster == NULL) || p == NULL)
    return;
  gomp_io_touch (p, len, reading);
}

/* Before _gfortran_transfer_array (READING) or
   _gfortran_transfer_array_write: the elements of the array DESC.  A
   contiguous array is one range; otherwise each element is touched.  */
GOMP_EXPORT void
ompc_gfortran_io_array (const void *desc, int32_t reading)
{
  if (GOMP_LIKELY (gomp_cluster == NULL) || desc == NULL)
    return;
  const struct gomp_gfc_array *a = desc;
  int rank = a->dtype.rank;
  size_t size = a->dtype.elem_len;
  if (a->data == NULL || rank <= 0 || rank > GOMP_GFC_MAX_DIMENSIONS)
    return;

  intptr_t extent[GOMP_GFC_MAX_DIMENSIONS], count[GOMP_GFC_MAX_DIMENSIONS];
  intptr_t packed = 1;
  bool contiguous = true;
  for (int d = 0; d < rank; d++)
    {
      extent[d] = a->dim[d].ubound - a->dim[d].lbound + 1;
      if (extent[d] <= 0)
	return;
      if (a->dim[d].stride != packed)
	contiguous = false;
      packed *= extent[d];
      count[d] = 0;
    }
  if (contiguous)
    {
      gomp_io_touch (a->data, packed * size, reading);
      return;
    }

  /* An odometer over the indices; P follows the element.  */
  const char *p = a->data;
  for (;;)
    {
      gomp_io_touch (p, size, reading);
      int d = 0;
      while (d < rank && ++count[d] == extent[d])
	{
	  p -= (extent[d] - 1) * a->dim[d].stride * (intptr_t) size;
	  count[d] = 0;
	  d++;
	}
      if (d == rank)
	return;
      p += a->dim[d].stride * (intptr_t) size;
    }
}

/* The head of libgfortran's st_parameter_common and st_parameter_inquire
   (GCC 12, libgfortran/io/io.h); the rest of the inquire block stays zero,
   room to spare.  */
#define GOMP_GFC_DT_HAS_INTERNAL_UNIT (1 << 14)
#define GOMP_GFC_INQUIRE_HAS_OPENED (1 << 8)

struct gomp_gfc_common
{
  int32_t flags, unit;
  const char *filename;
  int32_t line;
  size_t iomsg_len;
  char *iomsg;
  int32_t *iostat;
};

struct gomp_gfc_inquire
{
  struct gomp_gfc_common common;
  int32_t *exist, *opened, *number, *named;
  char rest[1024];
};

/* Before _gfortran_st_read and _gfortran_st_write: DT is the statement's
   parameter block.  On a node other than rank 0, a transfer to an
   external unit that is not connected on this node is a fatal error.  */
GOMP_EXPORT void
ompc_gfortran_unit (const void *dt)
{
  if (GOMP_LIKELY (gomp_cluster == NULL) || gomp_cluster->rank == 0)
    return;
  const struct gomp_gfc_common *c = dt;
  if (c->flags & GOMP_GFC_DT_HAS_INTERNAL_UNIT)
    return;
  static void (*inquire) (struct gomp_gfc_inquire *);
  if (inquire == NULL)
    inquire = (void (*) (struct gomp_gfc_inquire *))
      dlsym (RTLD_DEFAULT, "_gfortran_st_inquire");
  if (inquire == NULL)
    return;
  struct gomp_gfc_inquire q = { 0 };
  int32_t opened = 0;
  q.common.flags = GOMP_GFC_INQUIRE_HAS_OPENED;
  q.common.unit = c->unit;
  q.common.filename = c->filename;
  q.common.line = c->line;
  q.opened = &opened;
  inquire (&q);
  if (!opened)
    gomp_fatal ("Fortran unit %d (%s:%d) is not open on this node: units "
		"are per node, and only rank 0 has the ones the main program "
		"opened; do the I/O on rank 0 (in a master or single "
		"construct, or outside the parallel region), or open the "
		"unit in the thread that uses it", (int) c->unit,
		c->filename ? c->filename : "?", (int) c->line);
}

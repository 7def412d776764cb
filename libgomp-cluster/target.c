/* target.c -- device constructs and the device memory routines when there
   is no device (OpenMP 5.1, sections 2.14 and 3.8): every target region
   runs on the host, as GCC's libgomp does without offload devices.

   omp_get_num_devices () is 0, so the host is device number 0 and also the
   initial device.  Mapping clauses have nothing to do: host and "device"
   memory are the same.  A target region runs on the encountering thread as
   an initial thread of its own (a new contention group: level 0, thread 0
   of 1, its own thread limit); team.c provides the save and restore of the
   thread's state around it.  depend clauses are honoured; a nowait target
   construct in a team becomes a deferred target task that any thread of
   the team may run (outside a team, or in a final task, it runs at once).
   */

#include "task.h"
#include "omp.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* From gomp-constants.h (GCC 12): map kinds and target arguments.  */
#define GOMP_MAP_FIRSTPRIVATE		0x0c
#define GOMP_TARGET_ARG_DEVICE_MASK	((1 << 7) - 1)
#define GOMP_TARGET_ARG_DEVICE_ALL	0
#define GOMP_TARGET_ARG_SUBSEQUENT_PARAM (1 << 7)
#define GOMP_TARGET_ARG_ID_MASK		(((1 << 8) - 1) << 8)
#define GOMP_TARGET_ARG_THREAD_LIMIT	(2 << 8)
#define GOMP_TARGET_ARG_VALUE_SHIFT	16
#define GOMP_TARGET_FLAG_NOWAIT		(1 << 0)

/* The only device is the host, numbered after the (absent) offload
   devices.  */
#define GOMP_HOST_DEVICE 0
/* GCC's device arguments: the default-device ICV, the host.  */
#define GOMP_DEVICE_ICV -1
#define GOMP_DEVICE_HOST_FALLBACK -2

/* OMP_TARGET_OFFLOAD (env.c): 0 default, 1 mandatory, 2 disabled.  */
extern int gomp_target_offload_var;

/* A device construct names DEVICE: with OMP_TARGET_OFFLOAD=MANDATORY a
   device that does not exist is an error (the host, device 0, is fine),
   as in GCC's libgomp.  */
static void
gomp_target_check_device (int device)
{
  if (device == GOMP_DEVICE_ICV)
    device = gomp_icv ()->default_device_var;
  if (gomp_target_offload_var == 1 && device != GOMP_HOST_DEVICE
      && device != GOMP_DEVICE_HOST_FALLBACK)
    gomp_fatal ("OMP_TARGET_OFFLOAD is set to MANDATORY, but device %d "
		"not found (this runtime has no offload devices)", device);
}

GOMP_EXPORT int
omp_get_num_devices (void)
{
  return 0;
}

GOMP_EXPORT int
omp_get_initial_device (void)
{
  return GOMP_HOST_DEVICE;
}

GOMP_EXPORT int
omp_is_initial_device (void)
{
  return 1;
}

GOMP_EXPORT int
omp_get_device_num (void)
{
  return GOMP_HOST_DEVICE;
}

/* The thread_limit argument of a target region, or 0 if none.  */
static unsigned
gomp_target_thread_limit (void **args)
{
  if (args == NULL)
    return 0;
  while (*args)
    {
      intptr_t id = (intptr_t) *args++, val;
      if (id & GOMP_TARGET_ARG_SUBSEQUENT_PARAM)
	val = (intptr_t) *args++;
      else
	val = id >> GOMP_TARGET_ARG_VALUE_SHIFT;
      if ((id & GOMP_TARGET_ARG_DEVICE_MASK) != GOMP_TARGET_ARG_DEVICE_ALL
	  || (id & GOMP_TARGET_ARG_ID_MASK) != GOMP_TARGET_ARG_THREAD_LIMIT)
	continue;
      return val > INT_MAX ? INT_MAX : val < 0 ? 0 : val;
    }
  return 0;
}

/* firstprivate variables of a target region get fresh copies, which the
   region's function finds through HOSTADDRS.  Returns the bytes of
   scratch space that needs (with alignment slack); copies into BUF when
   BUF is non-NULL.  */
static size_t
gomp_target_firstprivate (char *buf, size_t mapnum, void **hostaddrs,
			  size_t *sizes, unsigned short *kinds)
{
  size_t size = 0, max_align = 1;
  for (size_t i = 0; i < mapnum; i++)
    if ((kinds[i] & 0xff) == GOMP_MAP_FIRSTPRIVATE)
      {
	size_t align = (size_t) 1 << (kinds[i] >> 8);
	if (align > max_align)
	  max_align = align;
	size = (size + align - 1) & ~(align - 1);
	if (buf && hostaddrs[i])
	  {
	    memcpy (buf + size, hostaddrs[i], sizes[i]);
	    hostaddrs[i] = buf + size;
	  }
	size += sizes[i];
      }
  return size ? size + max_align - 1 : 0;
}

static inline char *
gomp_align_up (char *p, size_t mapnum, unsigned short *kinds)
{
  size_t max_align = 1;
  for (size_t i = 0; i < mapnum; i++)
    if ((kinds[i] & 0xff) == GOMP_MAP_FIRSTPRIVATE
	&& ((size_t) 1 << (kinds[i] >> 8)) > max_align)
      max_align = (size_t) 1 << (kinds[i] >> 8);
  return (char *) (((uintptr_t) p + max_align - 1) & ~(max_align - 1));
}

/* Whether the calling thread runs a target region met inside a team, or
   inside such a region: parallel.c keeps its regions in the node.  They
   are top-level regions of a new initial thread, but the data they use
   may be private to this node (an explicit task's copies are in its own
   block, from the node's heap; a nowait target task's too), and a thread
   of a team is the design's "thread that meets a nested region".  */
__thread bool gomp_target_in_node __attribute__ ((tls_model ("initial-exec")));

/* Runs a target region's function on the encountering thread as a new
   initial thread.  Inside a team, the thread's pools serve the enclosing
   team: regions inside the target region get threads of their own
   (team.c keeps them for the next such region), and stay in the node.  */
void
gomp_target_run_host (void (*fn) (void *), void **hostaddrs,
		      unsigned thread_limit)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team_state saved_ts = thr->ts;
  struct gomp_task_icv *saved_icv = thr->icv;
  struct gomp_task_icv saved_implicit_icv = thr->implicit_icv;
  struct gomp_pools_saved saved_pools;
  unsigned saved_nteams = gomp_num_teams_m1, saved_team = gomp_team_num;
  bool in_team = saved_ts.team != NULL;
  bool saved_in_node = gomp_target_in_node;

  /* A new contention group: level 0, no team, the device's initial ICVs
     (the host's initial values), the region's thread limit.  */
  memset (&thr->ts, 0, sizeof thr->ts);
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  thr->ts.place_partition_off = saved_ts.place_partition_off;
  thr->ts.place_partition_len = saved_ts.place_partition_len;
  thr->implicit_icv = gomp_global_icv;
  if (thread_limit)
    thr->implicit_icv.thread_limit_var = thread_limit;
  thr->icv = &thr->implicit_icv;
  if (in_team)
    {
      gomp_pools_save (thr, &saved_pools);
      gomp_target_in_node = true;
    }
  gomp_num_teams_m1 = gomp_team_num = 0;
  void *saved_task = gomp_task_push_initial (thr);

  fn (hostaddrs);

  gomp_task_pop_initial (thr, saved_task);
  if (in_team)
    {
      gomp_pools_restore (thr, &saved_pools);
    }
  gomp_target_in_node = saved_in_node;
  thr->ts = saved_ts;
  thr->icv = saved_icv;
  thr->implicit_icv = saved_implicit_icv;
  gomp_num_teams_m1 = saved_nteams;
  gomp_team_num = saved_team;
}

/* A target nowait region is a deferred task (a target task) whose data
   block holds the region's function, a copy of HOSTADDRS and the
   firstprivate copies.  */
struct gomp_target_task
{
  void (*fn) (void *);
  unsigned thread_limit;
  size_t mapnum;
  /* The source only: the encountering thread's arrays.  */
  void **hostaddrs;
  size_t *sizes;
  unsigned short *kinds;
  /* The task's copy: HOSTADDRS, then the firstprivate data.  */
  void *addrs[];
};

/* The largest alignment of a firstprivate item (at least a pointer's).  */
static size_t
gomp_target_fp_align (size_t mapnum, unsigned short *kinds)
{
  size_t max_align = sizeof (void *);
  for (size_t i = 0; i < mapnum; i++)
    if ((kinds[i] & 0xff) == GOMP_MAP_FIRSTPRIVATE
	&& ((size_t) 1 << (kinds[i] >> 8)) > max_align)
      max_align = (size_t) 1 << (kinds[i] >> 8);
  return max_align;
}

/* GOMP_task's copy function for a target task: builds the task's block
   at DST from the description at SRC.  */
static void
gomp_target_task_copy (void *dst, void *src)
{
  struct gomp_target_task *d = dst, *s = src;
  d->fn = s->fn;
  d->thread_limit = s->thread_limit;
  d->mapnum = s->mapnum;
  memcpy (d->addrs, s->hostaddrs, s->mapnum * sizeof (void *));
  char *fp = (char *) (d->addrs + s->mapnum);
  fp = gomp_align_up (fp, s->mapnum, s->kinds);
  gomp_target_firstprivate (fp, s->mapnum, d->addrs, s->sizes, s->kinds);
}

static void
gomp_target_task_fn (void *data)
{
  struct gomp_target_task *d = data;
  gomp_target_run_host (d->fn, d->addrs, d->thread_limit);
}

/* Creates the target task of a target nowait region; false when the
   region must run at once instead (no team, or in a final task).  */
static bool
gomp_target_task (void (*fn) (void *), size_t mapnum, void **hostaddrs,
		  size_t *sizes, unsigned short *kinds, void **depend,
		  unsigned thread_limit)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (team == NULL)
    return false;
  struct gomp_task *parent = gomp_current_task (thr);
  if (parent->final_task)
    return false;
  if (GOMP_UNLIKELY (gomp_cancel_var)
      && gomp_task_cancelled (team, parent->taskgroup))
    return true;

  struct gomp_target_task src = {
    .fn = fn, .thread_limit = thread_limit, .mapnum = mapnum,
    .hostaddrs = hostaddrs, .sizes = sizes, .kinds = kinds
  };
  size_t align = gomp_target_fp_align (mapnum, kinds);
  size_t size = sizeof src + mapnum * sizeof (void *)
		+ gomp_target_firstprivate (NULL, mapnum, hostaddrs, sizes,
					    kinds)
		+ align;
  size_t ndeps = depend ? gomp_depend_count (depend) : 0;
  struct gomp_task *t
    = gomp_task_alloc (thr, parent, gomp_target_task_fn, &src,
		       gomp_target_task_copy, size, align, 0, 0, ndeps, NULL,
		       NULL, 0);
  struct gomp_team_tasks *tt = gomp_team_tasks (team);
  gomp_mutex_lock (&tt->lock);
  if (GOMP_UNLIKELY (gomp_cancel_var)
      && gomp_task_cancelled (team, t->member_of))
    {
      gomp_mutex_unlock (&tt->lock);
      gomp_task_free (t);
      return true;
    }
  bool queued = gomp_task_submit (tt, parent, t, depend);
  gomp_mutex_unlock (&tt->lock);
  if (queued)
    gomp_barrier_maybe_wake (team);
  return true;
}

/* The target construct (GCC 12 emits this one).  */
GOMP_EXPORT void
GOMP_target_ext (int device, void (*fn) (void *), size_t mapnum,
		 void **hostaddrs, size_t *sizes, unsigned short *kinds,
		 unsigned int flags, void **depend, void **args)
{
  gomp_target_check_device (device);
  if ((flags & GOMP_TARGET_FLAG_NOWAIT)
      && gomp_target_task (fn, mapnum, hostaddrs, sizes, kinds, depend,
			   gomp_target_thread_limit (args)))
    return;
  if (depend)
    gomp_task_wait_depend (depend);
  size_t fp = gomp_target_firstprivate (NULL, mapnum, hostaddrs, sizes,
					kinds);
  if (fp)
    {
      char *buf = __builtin_alloca (fp);
      gomp_target_firstprivate (gomp_align_up (buf, mapnum, kinds), mapnum,
				hostaddrs, sizes, kinds);
    }
  gomp_target_run_host (fn, hostaddrs, gomp_target_thread_limit (args));
}

/* The GCC 4.x form, without firstprivate, depend or arguments.  */
GOMP_EXPORT void
GOMP_target (int device, void (*fn) (void *), const void *unused,
	     size_t mapnum, void **hostaddrs, size_t *sizes,
	     unsigned char *kinds)
{
  gomp_target_check_device (device);
  gomp_target_run_host (fn, hostaddrs, 0);
}

/* target data, enter data, exit data, update: there is nothing to map or
   copy; only dependences need honouring.  */
GOMP_EXPORT void
GOMP_target_data_ext (int device, size_t mapnum, void **hostaddrs,
		      size_t *sizes, unsigned short *kinds)
{
  gomp_target_check_device (device);
}

GOMP_EXPORT void
GOMP_target_data (int device, const void *unused, size_t mapnum,
		  void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
}

GOMP_EXPORT void
GOMP_target_end_data (void)
{
}

GOMP_EXPORT void
GOMP_target_update_ext (int device, size_t mapnum, void **hostaddrs,
			size_t *sizes, unsigned short *kinds,
			unsigned int flags, void **depend)
{
  gomp_target_check_device (device);
  if (depend)
    gomp_task_wait_depend (depend);
}

GOMP_EXPORT void
GOMP_target_update (int device, const void *unused, size_t mapnum,
		    void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
}

GOMP_EXPORT void
GOMP_target_enter_exit_data (int device, size_t mapnum, void **hostaddrs,
			     size_t *sizes, unsigned short *kinds,
			     unsigned int flags, void **depend)
{
  gomp_target_check_device (device);
  if (depend)
    gomp_task_wait_depend (depend);
}

/* Offload images: there is no device to load them on.  */
GOMP_EXPORT void
GOMP_offload_register_ver (unsigned version, const void *host_table,
			   int target_type, const void *target_data)
{
}

GOMP_EXPORT void
GOMP_offload_unregister_ver (unsigned version, const void *host_table,
			     int target_type, const void *target_data)
{
}

GOMP_EXPORT void
GOMP_offload_register (const void *host_table, int target_type,
		       const void *target_data)
{
}

GOMP_EXPORT void
GOMP_offload_unregister (const void *host_table, int target_type,
			 const void *target_data)
{
}

/* Device memory routines (3.8): only the host device exists, whose memory
   is the program's.  */

GOMP_EXPORT void *
omp_target_alloc (size_t size, int device_num)
{
  if (device_num != GOMP_HOST_DEVICE)
    return NULL;
  return gomp_cluster ? gomp_cluster->malloc (size) : malloc (size);
}

GOMP_EXPORT void
omp_target_free (void *device_ptr, int device_num)
{
  if (device_ptr == NULL || device_num != GOMP_HOST_DEVICE)
    return;
  if (gomp_cluster)
    gomp_cluster->free (device_ptr);
  else
    free (device_ptr);
}

GOMP_EXPORT int
omp_target_is_present (const void *ptr, int device_num)
{
  return ptr == NULL || device_num == GOMP_HOST_DEVICE;
}

GOMP_EXPORT int
omp_target_memcpy (void *dst, const void *src, size_t length,
		   size_t dst_offset, size_t src_offset, int dst_device_num,
		   int src_device_num)
{
  if (dst_device_num != GOMP_HOST_DEVICE || src_device_num != GOMP_HOST_DEVICE)
    return EINVAL;
  memcpy ((char *) dst + dst_offset, (const char *) src + src_offset, length);
  return 0;
}

/* Copies the NUM_DIMS-dimensional sub-array; false on a size overflow.  */
static bool
gomp_memcpy_rect (char *dst, const char *src, size_t element_size,
		  int num_dims, const size_t *volume,
		  const size_t *dst_offsets, const size_t *src_offsets,
		  const size_t *dst_dimensions, const size_t *src_dimensions)
{
  size_t len, dst_off, src_off;
  if (num_dims == 1)
    {
      if (__builtin_mul_overflow (element_size, volume[0], &len)
	  || __builtin_mul_overflow (element_size, dst_offsets[0], &dst_off)
	  || __builtin_mul_overflow (element_size, src_offsets[0], &src_off))
	return false;
      memcpy (dst + dst_off, src + src_off, len);
      return true;
    }
  size_t dst_slice = element_size, src_slice = element_size;
  for (int i = 1; i < num_dims; i++)
    if (__builtin_mul_overflow (dst_slice, dst_dimensions[i], &dst_slice)
	|| __builtin_mul_overflow (src_slice, src_dimensions[i], &src_slice))
      return false;
  if (__builtin_mul_overflow (dst_slice, dst_offsets[0], &dst_off)
      || __builtin_mul_overflow (src_slice, src_offsets[0], &src_off))
    return false;
  for (size_t j = 0; j < volume[0]; j++)
    if (!gomp_memcpy_rect (dst + dst_off + j * dst_slice,
			   src + src_off + j * src_slice, element_size,
			   num_dims - 1, volume + 1, dst_offsets + 1,
			   src_offsets + 1, dst_dimensions + 1,
			   src_dimensions + 1))
      return false;
  return true;
}

GOMP_EXPORT int
omp_target_memcpy_rect (void *dst, const void *src, size_t element_size,
			int num_dims, const size_t *volume,
			const size_t *dst_offsets, const size_t *src_offsets,
			const size_t *dst_dimensions,
			const size_t *src_dimensions, int dst_device_num,
			int src_device_num)
{
  /* Both NULL: the number of dimensions supported.  */
  if (dst == NULL && src == NULL)
    return INT_MAX;
  if (dst_device_num != GOMP_HOST_DEVICE || src_device_num != GOMP_HOST_DEVICE
      || dst == NULL || src == NULL || num_dims < 1)
    return EINVAL;
  return gomp_memcpy_rect (dst, src, element_size, num_dims, volume,
			   dst_offsets, src_offsets, dst_dimensions,
			   src_dimensions) ? 0 : EINVAL;
}

/* Associating host memory with memory of the host device is meaningless:
   EINVAL, as in GCC's libgomp.  */
GOMP_EXPORT int
omp_target_associate_ptr (const void *host_ptr, const void *device_ptr,
			  size_t size, size_t device_offset, int device_num)
{
  return EINVAL;
}

GOMP_EXPORT int
omp_target_disassociate_ptr (const void *ptr, int device_num)
{
  return EINVAL;
}

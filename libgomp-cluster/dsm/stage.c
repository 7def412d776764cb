/* stage.c -- diffs that reached their home before the home acquired
   them.

   A diff applied at its home at once would be visible there to the
   home's own threads before they acquire the release that sent it: a
   pipeline that writes data and then a flag, and flushes, could let a
   thread of the flag's home see the flag while its cached copy of the
   data (homed elsewhere, or a block it writes itself) is still the old
   one, since nothing invalidated it yet.  So a home keeps the diffs it
   receives aside, in arrival order, and applies a block's diffs when one
   of its acquires names the block (after invalidating the others that
   acquire names), or at a hand-off of the block, or when it acquires
   everything.  Other nodes see them at once: a fetch is served with the
   block's diffs applied to a copy (serve.c).  Every diff is announced by
   its release, so every staged diff is applied at the latest at the next
   barrier.  Every function is called with the block's lock held; the
   diff handler stages (the service thread or a full-pass waiter, never
   in signal context).  */

#include "dsm-int.h"
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct staged
{
  struct staged *next;
  int src;
  uint64_t label;		/* SRC's release that announces it.  */
  uint32_t form;
  uint32_t len;
  unsigned char body[];
};

/* Block B's staged diffs, oldest first, and the last one.  */
static struct staged **head, **tail;
/* The blocks that have staged diffs (maybe some that no longer have),
   for gomp_dsm_stage_apply_all; under list_mutex.  */
static pthread_mutex_t list_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *list;
static size_t nlist, caplist;

void
gomp_dsm_stage_init (void)
{
  head = calloc (gomp_dsm.nblocks, sizeof *head);
  tail = calloc (gomp_dsm.nblocks, sizeof *tail);
  if (!head || !tail)
    gomp_dsm_fatal ("out of memory for %u blocks' staged diffs",
		    gomp_dsm.nblocks);
}

bool
gomp_dsm_staged (uint32_t b)
{
  return __atomic_load_n (&head[b], __ATOMIC_ACQUIRE) != NULL;
}

/* Lists B among the blocks with staged diffs, forgetting first those
   applied since when the list is full.  */
static void
list_push (uint32_t b)
{
  pthread_mutex_lock (&list_mutex);
  if (nlist == caplist)
    {
      size_t k = 0;
      for (size_t i = 0; i < nlist; i++)
	if (__atomic_load_n (&head[list[i]], __ATOMIC_ACQUIRE))
	  list[k++] = list[i];
      nlist = k;
      if (nlist * 2 >= caplist)
	{
	  caplist = caplist ? 2 * caplist : 256;
	  list = realloc (list, caplist * sizeof *list);
	  if (!list)
	    gomp_dsm_fatal ("out of memory for staged diffs");
	}
    }
  list[nlist++] = b;
  pthread_mutex_unlock (&list_mutex);
}

void
gomp_dsm_stage_add (uint32_t b, int src, uint64_t label, uint32_t form,
		    const unsigned char *p, size_t len)
{
  struct staged *s = malloc (sizeof *s + len);
  if (!s)
    gomp_dsm_fatal ("out of memory for a diff");
  s->next = NULL;
  s->src = src;
  s->label = label;
  s->form = form;
  s->len = len;
  memcpy (s->body, p, len);
  if (tail[b])
    tail[b]->next = s;
  else
    {
      list_push (b);
      __atomic_store_n (&head[b], s, __ATOMIC_RELEASE);
    }
  tail[b] = s;
}

void
gomp_dsm_stage_copy (uint32_t b, char *dst)
{
  for (struct staged *s = head[b]; s; s = s->next)
    if (!gomp_dsm_apply_diff (dst, gomp_dsm_block_len (b), s->form,
			      s->body, s->body + s->len))
      gomp_dsm_fatal ("corrupt staged diff (block %u)", b);
}

/* Applies to block B those of its staged diffs that LIMIT allows (the
   release of their node they come with is at most LIMIT[node]; NULL:
   all), and forgets them; the others stay, in order.  */
static void
apply_upto (uint32_t b, const uint64_t *limit)
{
  bool twin = gomp_dsm_htwin (b);
  struct staged *keep = NULL, **kt = &keep;
  for (struct staged *s = head[b], *next; s; s = next)
    {
      next = s->next;
      if (limit && s->label > limit[s->src])
	{
	  *kt = s;
	  kt = &s->next;
	  continue;
	}
      if (!gomp_dsm_apply_diff (gomp_dsm_block_wview (b),
				gomp_dsm_block_len (b), s->form, s->body,
				s->body + s->len)
	  || (twin && !gomp_dsm_apply_diff (gomp_dsm_twin (b),
					    gomp_dsm_block_len (b), s->form,
					    s->body, s->body + s->len)))
	gomp_dsm_fatal ("corrupt staged diff (block %u)", b);
      free (s);
    }
  *kt = NULL;
  tail[b] = keep ? (struct staged *) ((char *) kt
				      - offsetof (struct staged, next))
	    : NULL;
  __atomic_store_n (&head[b], keep, __ATOMIC_RELEASE);
}

void
gomp_dsm_stage_apply (uint32_t b)
{
  if (head[b])
    apply_upto (b, NULL);
}

void
gomp_dsm_stage_apply_list (const uint32_t *v, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (gomp_dsm_staged (v[i]))
      {
	gomp_dsm_lock (v[i]);
	gomp_dsm_stage_apply (v[i]);
	gomp_dsm_unlock (v[i]);
      }
}

void
gomp_dsm_stage_apply_all (const uint64_t *limit)
{
  pthread_mutex_lock (&list_mutex);
  uint32_t *v = list;
  size_t n = nlist;
  list = NULL;
  nlist = caplist = 0;
  pthread_mutex_unlock (&list_mutex);
  for (size_t i = 0; i < n; i++)
    {
      gomp_dsm_lock (v[i]);
      if (head[v[i]])
	{
	  apply_upto (v[i], limit);
	  if (head[v[i]])
	    /* Kept: listed again.  */
	    list_push (v[i]);
	}
      gomp_dsm_unlock (v[i]);
    }
  free (v);
}

void
gomp_dsm_acquired_upto (const uint64_t *seq)
{
  gomp_dsm_stage_apply_all (seq);
}

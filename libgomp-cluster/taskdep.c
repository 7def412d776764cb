/* taskdep.c -- task dependences (OpenMP 5.1, section 2.19.11): the
   per-parent table from address to the last out sibling and the in
   siblings since, the edges from predecessors to successors, and the
   decoding of GCC's depend arrays (in, out, inout, mutexinoutset, depobj).
   Everything here runs with the team's task lock held.  task.h describes
   the structures.  */

#include "task.h"
#include <stdlib.h>

static inline size_t
gomp_dep_hash (void *addr)
{
  return ((uintptr_t) addr >> 3) * 0x9e3779b97f4a7c15ull >> 20;
}

static struct gomp_dep_entry *
gomp_dep_lookup (struct gomp_dep_table *tab, void *addr, bool insert)
{
  struct gomp_dep_entry **b = &tab->buckets[gomp_dep_hash (addr) & tab->mask];
  for (struct gomp_dep_entry *e = *b; e; e = e->chain)
    if (e->addr == addr)
      return e;
  if (!insert)
    return NULL;
  if (tab->count >= 2 * (tab->mask + 1))
    {
      /* Grow: rehash every entry into twice the buckets.  */
      size_t nb = 2 * (tab->mask + 1);
      struct gomp_dep_entry **nbk = calloc (nb, sizeof *nbk);
      if (nbk == NULL)
	gomp_fatal ("out of memory for task dependences");
      for (size_t i = 0; i <= tab->mask; i++)
	for (struct gomp_dep_entry *e = tab->buckets[i], *n; e; e = n)
	  {
	    n = e->chain;
	    struct gomp_dep_entry **nb2 = &nbk[gomp_dep_hash (e->addr)
					       & (nb - 1)];
	    e->chain = *nb2;
	    *nb2 = e;
	  }
      free (tab->buckets);
      tab->buckets = nbk;
      tab->mask = nb - 1;
      b = &tab->buckets[gomp_dep_hash (addr) & tab->mask];
    }
  struct gomp_dep_entry *e = calloc (1, sizeof *e);
  if (e == NULL)
    gomp_fatal ("out of memory for task dependences");
  e->addr = addr;
  e->chain = *b;
  *b = e;
  tab->count++;
  return e;
}

void
gomp_dep_table_free (struct gomp_dep_table *tab)
{
  for (size_t i = 0; i <= tab->mask; i++)
    for (struct gomp_dep_entry *e = tab->buckets[i], *n; e; e = n)
      {
	n = e->chain;
	free (e);
      }
  free (tab->buckets);
  free (tab);
}

/* Makes SUCC wait for PRED (once, however many items they share).  */
static void
gomp_dep_edge (struct gomp_task *pred, struct gomp_task *succ)
{
  if (pred == NULL || pred == succ
      || (pred->nsucc && pred->succ[pred->nsucc - 1] == succ))
    return;
  if (pred->nsucc == pred->succ_cap)
    {
      unsigned cap = pred->succ_cap ? 2 * pred->succ_cap : 4;
      struct gomp_task **s = realloc (pred->succ, cap * sizeof *s);
      if (s == NULL)
	gomp_fatal ("out of memory for task dependences");
      pred->succ = s;
      pred->succ_cap = cap;
    }
  pred->succ[pred->nsucc++] = succ;
  succ->npred++;
}

/* The number of items in DEPEND (see GOMP_task), and calls ITEM (ADDR,
   IS_IN) on each.  */
size_t
gomp_depend_count (void **depend)
{
  return (uintptr_t) (depend[0] ? depend[0] : depend[1]);
}

static inline void
gomp_depend_item (void **depend, size_t i, void **addr, bool *is_in)
{
  if (depend[0])
    {
      size_t nout = (uintptr_t) depend[1];
      *addr = depend[2 + i];
      *is_in = i >= nout;
      return;
    }
  size_t nout = (uintptr_t) depend[2], nmutex = (uintptr_t) depend[3];
  size_t nin = (uintptr_t) depend[4];
  if (i < nout + nmutex + nin)
    {
      /* mutexinoutset is treated as out: stricter, and conforming.  */
      *addr = depend[5 + i];
      *is_in = i >= nout + nmutex;
      return;
    }
  /* An omp_depend_t from the depobj construct: address and kind.  */
  void **d = (void **) depend[5 + i];
  *addr = d[0];
  switch ((uintptr_t) d[1])
    {
    case GOMP_DEPEND_IN:
      *is_in = true;
      break;
    case GOMP_DEPEND_OUT:
    case GOMP_DEPEND_INOUT:
    case GOMP_DEPEND_MUTEXINOUTSET:
      *is_in = false;
      break;
    default:
      gomp_fatal ("unknown dependence type %d in an omp_depend_t "
		  "(uninitialised depend object?)", (int) (uintptr_t) d[1]);
    }
}

/* Adds to T the edges from the siblings it depends on, per the table of
   PARENT; when RECORD, enters T's items in the table (T is a deferred
   sibling).  Called with the team's task lock held.  */
void
gomp_task_add_depend (struct gomp_task *parent, struct gomp_task *t,
		      void **depend, bool record)
{
  size_t n = gomp_depend_count (depend);
  if (parent->deps == NULL)
    {
      if (!record)
	return;
      struct gomp_dep_table *tab = malloc (sizeof *tab);
      size_t nb = 16;
      while (nb < 2 * n)
	nb *= 2;
      if (tab)
	tab->buckets = calloc (nb, sizeof *tab->buckets);
      if (tab == NULL || tab->buckets == NULL)
	gomp_fatal ("out of memory for task dependences");
      tab->mask = nb - 1;
      tab->count = 0;
      parent->deps = tab;
    }
  for (size_t i = 0; i < n; i++)
    {
      void *addr;
      bool is_in;
      gomp_depend_item (depend, i, &addr, &is_in);
      struct gomp_dep_entry *e = gomp_dep_lookup (parent->deps, addr, record);
      if (e == NULL)
	continue;
      struct gomp_task *last_out = e->out ? e->out->task : NULL;
      if (is_in)
	gomp_dep_edge (last_out, t);
      else if (e->ins)
	for (struct gomp_dep_rec *r = e->ins; r; r = r->next)
	  gomp_dep_edge (r->task, t);
      else
	gomp_dep_edge (last_out, t);
      if (!record)
	continue;
      struct gomp_dep_rec *r = &t->dep_recs[i];
      r->task = t;
      r->is_in = is_in;
      if (is_in)
	{
	  r->entry = e;
	  r->prev = NULL;
	  r->next = e->ins;
	  if (e->ins)
	    e->ins->prev = r;
	  e->ins = r;
	}
      else
	{
	  /* T now orders every later access: the in siblings need no
	     longer be remembered.  */
	  for (struct gomp_dep_rec *q = e->ins, *nx; q; q = nx)
	    {
	      nx = q->next;
	      q->entry = NULL;
	    }
	  e->ins = NULL;
	  if (e->out)
	    e->out->entry = NULL;
	  e->out = r;
	  r->entry = e;
	  r->next = r->prev = NULL;
	}
    }
}

/* Takes finished T out of TAB, its parent's table; an address no
   unfinished sibling names any more leaves the table.  */
void
gomp_task_remove_depend (struct gomp_dep_table *tab, struct gomp_task *t)
{
  for (unsigned i = 0; i < t->ndeps; i++)
    {
      struct gomp_dep_rec *r = &t->dep_recs[i];
      struct gomp_dep_entry *e = r->entry;
      if (e == NULL)
	continue;
      if (!r->is_in)
	e->out = NULL;
      else
	{
	  if (r->prev)
	    r->prev->next = r->next;
	  else
	    e->ins = r->next;
	  if (r->next)
	    r->next->prev = r->prev;
	}
      r->entry = NULL;
      if (e->out == NULL && e->ins == NULL)
	{
	  struct gomp_dep_entry **b
	    = &tab->buckets[gomp_dep_hash (e->addr) & tab->mask];
	  while (*b != e)
	    b = &(*b)->chain;
	  *b = e->chain;
	  tab->count--;
	  free (e);
	}
    }
}

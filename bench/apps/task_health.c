/* task_health.c -- a health-care system over a tree of villages, in the
   manner of BOTS health: each village has a hospital with a waiting
   list, an assessment list and a ward, as linked lists of patients
   allocated on the heap.  At every step each village first simulates its
   child villages (a task per child, then taskwait), takes in the
   patients they referred up (in child order), then runs its own
   hospital: new patients fall ill (each village draws from its own
   random numbers), waiting patients are admitted while staff is free,
   assessed ones are either treated in the ward or referred to the
   parent village, and treated ones go home.  Everything is decided per
   village, so the result does not depend on which thread or node ran
   which village.  Checked against the same simulation run
   sequentially.  Usage: task_health [LEVELS [STEPS [WORK]]].  */

#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define CHILDREN 4

struct patient
{
  struct patient *next;
  int id, time, hops;
  double health;
};

struct list
{
  struct patient *head, *tail;
  int n;
};

struct village
{
  struct village *child[CHILDREN];
  int nchild, level, id, staff_free;
  uint64_t rng;
  struct list waiting, assess, ward, up;
  long treated, referred, total_time;
  double health_sum;
};

static int work;		/* Assessment cost per patient (iterations).  */
static int levels;

static void
push (struct list *l, struct patient *p)
{
  p->next = NULL;
  if (l->tail)
    l->tail->next = p;
  else
    l->head = p;
  l->tail = p;
  l->n++;
}

static struct patient *
pop (struct list *l)
{
  struct patient *p = l->head;
  if (p)
    {
      l->head = p->next;
      if (!l->head)
	l->tail = NULL;
      l->n--;
    }
  return p;
}

static void
append (struct list *l, struct list *m)
{
  if (!m->head)
    return;
  if (l->tail)
    l->tail->next = m->head;
  else
    l->head = m->head;
  l->tail = m->tail;
  l->n += m->n;
  m->head = m->tail = NULL;
  m->n = 0;
}

static struct village *
build (int level, int *next_id)
{
  struct village *v = calloc (1, sizeof *v);
  if (!v)
    {
      fprintf (stderr, "task_health: out of memory\n");
      exit (2);
    }
  v->level = level;
  v->id = (*next_id)++;
  v->staff_free = 1 << (levels - level);
  v->rng = bench_rand_skip (BENCH_RAND_SEED, (uint64_t) v->id * 1000003);
  if (level + 1 < levels)
    for (int c = 0; c < CHILDREN; c++)
      v->child[v->nchild++] = build (level + 1, next_id);
  return v;
}

/* An assessment: some arithmetic on the patient's state.  */
static double
assess (struct patient *p)
{
  double h = p->health;
  for (int i = 0; i < work; i++)
    h = h * 0.999 + 0.001 * ((p->id + i) % 13) / 13.0;
  return h;
}

static void
hospital (struct village *v)
{
  /* New patients.  */
  if (bench_rand (&v->rng) < 0.6)
    {
      struct patient *p = malloc (sizeof *p);
      if (!p)
	exit (2);
      p->id = v->id * 100000 + (int) (v->treated + v->referred) % 100000;
      p->time = 0;
      p->hops = 0;
      p->health = bench_rand (&v->rng);
      push (&v->waiting, p);
    }
  /* Treated patients go home; the others stay one step more.  */
  int nw = v->ward.n;
  for (int i = 0; i < nw; i++)
    {
      struct patient *p = pop (&v->ward);
      p->time++;
      if (bench_rand (&v->rng) < 0.3)
	{
	  v->treated++;
	  v->total_time += p->time;
	  v->health_sum += p->health;
	  v->staff_free++;
	  free (p);
	}
      else
	push (&v->ward, p);
    }
  /* Assessed patients: treated here, or referred to the parent.  */
  int na = v->assess.n;
  for (int i = 0; i < na; i++)
    {
      struct patient *p = pop (&v->assess);
      p->time++;
      p->health = assess (p);
      if (v->level > 0 && bench_rand (&v->rng) < 0.1)
	{
	  p->hops++;
	  v->referred++;
	  v->staff_free++;
	  push (&v->up, p);
	}
      else
	push (&v->ward, p);
    }
  /* Waiting patients are admitted while staff is free.  */
  while (v->staff_free > 0 && v->waiting.head)
    {
      v->staff_free--;
      push (&v->assess, pop (&v->waiting));
    }
  for (struct patient *p = v->waiting.head; p; p = p->next)
    p->time++;
}

static void
step (struct village *v, int tasks)
{
  for (int c = 0; c < v->nchild; c++)
    {
      struct village *ch = v->child[c];
      if (tasks)
	{
#pragma omp task firstprivate(ch)
	  step (ch, 1);
	}
      else
	step (ch, 0);
    }
  if (tasks)
    {
#pragma omp taskwait
    }
  for (int c = 0; c < v->nchild; c++)
    append (&v->waiting, &v->child[c]->up);
  hospital (v);
}

static void
totals (struct village *v, long *treated, long *referred, long *time,
	double *health)
{
  *treated += v->treated;
  *referred += v->referred;
  *time += v->total_time;
  *health += v->health_sum;
  for (int c = 0; c < v->nchild; c++)
    totals (v->child[c], treated, referred, time, health);
}

int
main (int argc, char **argv)
{
  levels = argc > 1 ? atoi (argv[1]) : 5;
  int steps = argc > 2 ? atoi (argv[2]) : 1000;
  work = argc > 3 ? atoi (argv[3]) : 20000;
  if (levels < 1 || steps < 1 || work < 0)
    return 2;
  int id = 0;
  struct village *top = build (0, &id);
  id = 0;
  struct village *ref = build (0, &id);
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < steps; s++)
    step (top, 1);
  double t = bench_now () - t0;
  for (int s = 0; s < steps; s++)
    step (ref, 0);
  long tr = 0, rf = 0, tm = 0, tr2 = 0, rf2 = 0, tm2 = 0;
  double h = 0, h2 = 0;
  totals (top, &tr, &rf, &tm, &h);
  totals (ref, &tr2, &rf2, &tm2, &h2);
  int good = tr == tr2 && rf == rf2 && tm == tm2 && h == h2;
  printf ("time %.6f\ncheck %.10e\nverified %s (%ld treated, %ld referred, "
	  "%d villages)\n", t, h + tr + rf * 1e-3 + tm * 1e-6,
	  good ? "yes" : "no", tr, rf, id);
  return !good;
}

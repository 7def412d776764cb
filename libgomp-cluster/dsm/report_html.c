/* report_html.c -- the sharing report's page and summary (rank 0, at the
   end of the job; see report.h and docs/report.md).

   From every node's records: the program objects (report_objects.c)
   ranked by the bytes the DSM moved for them (blocks fetched times the
   block size, plus the diffs sent), each with its counters per node and
   what to try; a bar chart of the bytes moved per object and node; per
   object a bar chart of its faults, fetches, diffs and invalidations
   per node; per node a heat map of the top objects' blocks (rows) over
   the run's time (columns).  One self-contained file: inline SVG and
   CSS, no script, nothing fetched from a network, and well-formed XML
   (XHTML), so that both browsers and XML tools read it.  The summary
   on stderr names the top objects with the same advice.  */

#include "dsm-int.h"
#include "report.h"
#include "report-int.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_HEAT 10		/* Objects in the heat maps.  */
#define HEAT_ROWS 12		/* Rows per object at most.  */
#define HEAT_COLS 60		/* Time columns.  */
#define TOP_TABLE 30		/* Objects listed.  */

static const char *const node_color[8] = {
  "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
  "#e377c2", "#7f7f7f" };

struct node_data
{
  struct gomp_dsm_rhdr h;
  const struct gomp_dsm_rblock *b;
  const struct gomp_dsm_revent *e;
  struct gomp_dsm_ralloc *a;
};

static void
esc (FILE *f, const char *s)
{
  for (; *s; s++)
    switch (*s)
      {
      case '&': fputs ("&amp;", f); break;
      case '<': fputs ("&lt;", f); break;
      case '>': fputs ("&gt;", f); break;
      case '"': fputs ("&quot;", f); break;
      default:
	if ((unsigned char) *s >= 32 || *s == '\n' || *s == '\t')
	  fputc (*s, f);
      }
}

/* Bytes in a short human form.  */
static const char *
human (uint64_t v, char *buf, size_t len)
{
  if (v >= 10ULL << 30)
    snprintf (buf, len, "%.1f GiB", v / 1073741824.0);
  else if (v >= 10ULL << 20)
    snprintf (buf, len, "%.1f MiB", v / 1048576.0);
  else if (v >= 10ULL << 10)
    snprintf (buf, len, "%.1f KiB", v / 1024.0);
  else
    snprintf (buf, len, "%lu B", (unsigned long) v);
  return buf;
}

static void
node_list (uint64_t mask, char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = 0;
  for (int r = 0; r < 64 && n + 8 < len; r++)
    if (mask & (1ULL << r))
      n += snprintf (buf + n, len - n, "%s%d", n ? ", " : "", r);
}

/* The names of the objects sharing O's blocks, in BUF ("" if none).  */
static void
sharers (const struct rp_objs *os, const struct rp_obj *o, char *buf,
	 size_t len)
{
  size_t n = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < o->nsharers && n + 4 < len; i++)
    n += snprintf (buf + n, len - n, "%s%s", i ? ", " : "",
		   os->v[o->sharers[i]].name);
}

/* What to try for object O, in BUF.  */
static void
advice (const struct rp_objs *os, const struct rp_obj *o, int nodes,
	size_t bs, char *buf, size_t len)
{
  uint64_t wf = 0, rf = 0, fetched = 0, invals = 0;
  for (int r = 0; r < nodes; r++)
    {
      wf += o->node[r].wfaults;
      rf += o->node[r].rfaults;
      fetched += o->node[r].fetched;
      invals += o->node[r].invals;
    }
  uint32_t top_home = 0, homed = 0;
  for (int r = 0; r < nodes && r < 64; r++)
    {
      homed += o->homes[r];
      if (o->homes[r] > o->homes[top_home])
	top_home = r;
    }
  char nl[256];
  if (o->kind == RP_STACK)
    snprintf (buf, len, "Other nodes read this node's thread stacks: the "
	      "block of shared variables' addresses that every parallel "
	      "region hands its threads lies there, with the locals of main "
	      "(or of a thread) used inside regions. Each region's start "
	      "moves a block or two: a loop of many short parallel regions "
	      "pays it every time; one parallel region around the loop, "
	      "with omp for inside, pays it once. Large locals that regions "
	      "share are better globals or heap data.");
  else if (o->fs)
    {
      char sh[600];
      node_list (o->fs_nodes, nl, sizeof nl);
      sharers (os, o, sh, sizeof sh);
      if (sh[0])
	snprintf (buf, len, "False sharing: nodes %s wrote the same %zu-byte "
		  "blocks in %lu barrier intervals, blocks that also hold %s. "
		  "Pad and align each of them to OMPC_DSM_BLOCK "
		  "(__attribute__ ((aligned (%zu))), a size that is a multiple "
		  "of %zu), so that data written by different nodes never "
		  "shares a block; align arrays that nodes write in parts "
		  "and give each node whole blocks (schedule(static) with a "
		  "chunk whose bytes are a multiple of %zu).", nl, bs,
		  (unsigned long) o->fs, sh, bs, bs, bs);
      else if (o->size && o->size < bs)
	snprintf (buf, len, "False sharing: nodes %s wrote the same %zu-byte "
		  "block in %lu barrier intervals, and the object is smaller "
		  "than a block. Pad and align it to OMPC_DSM_BLOCK "
		  "(__attribute__ ((aligned (%zu))) and a size that is a "
		  "multiple of %zu), or keep each node's data in an object "
		  "of its own.", nl, bs, (unsigned long) o->fs, bs, bs);
      else
	snprintf (buf, len, "False sharing: nodes %s wrote the same %zu-byte "
		  "blocks in %lu barrier intervals. Align the array to "
		  "OMPC_DSM_BLOCK (%zu bytes) and give each node's threads "
		  "whole blocks: schedule(static) with a chunk whose bytes "
		  "are a multiple of %zu, or pad per-thread elements to %zu "
		  "bytes.", nl, bs, (unsigned long) o->fs, bs, bs, bs);
    }
  else if (homed >= 4 && o->homes[top_home] * 10 >= homed * 9 && nodes > 1
	   && (fetched + wf) > homed)
    snprintf (buf, len, "%u of its %u blocks are homed on node %u, the "
	      "first to touch them (a serial initialisation?), and the other "
	      "nodes fetch them. Initialise it with a parallel loop of the "
	      "same schedule as the loops that use it (first touch), or set "
	      "OMPC_DSM_HOME=block.", o->homes[top_home], homed, top_home);
  else if (o->nblocks && fetched > o->nblocks && invals * 2 >= fetched)
    snprintf (buf, len, "Written on one node and read on another after "
	      "each synchronisation: its blocks are fetched again after "
	      "every write (%lu fetches, %lu invalidations), the sharing the "
	      "algorithm needs (e.g. a halo, or boundary rows). Fewer "
	      "elements on the borders between nodes' parts, or fewer "
	      "barriers between writing and reading, move less.",
	      (unsigned long) fetched, (unsigned long) invals);
  else if (rf + wf >= 64 && fetched * 4 <= (rf + wf) * 5)
    snprintf (buf, len, "Many faults, one block each: scattered "
	      "accesses. A bigger OMPC_DSM_BLOCK (e.g. %zu) brings more of "
	      "them per fault, if nodes do not write the same blocks.",
	      bs * 4);
  else
    snprintf (buf, len, "Read by several nodes: each fetches it once "
	      "after every change; nothing to change unless it is written "
	      "more often than needed.");
}

/* log2 (1 + V), piecewise linear: enough for a colour scale, and no
   libm (the DSM's unit test links these objects without it).  */
static double
lg1p (double v)
{
  int e = 0;
  for (v += 1; v >= 2; v /= 2)
    e++;
  return e + (v - 1);
}

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

static const struct rp_objs *sort_objs;

static int
cmp_rank (const void *a, const void *b)
{
  const struct rp_obj *x = &sort_objs->v[*(const uint32_t *) a];
  const struct rp_obj *y = &sort_objs->v[*(const uint32_t *) b];
  if (x->moved != y->moved)
    return x->moved > y->moved ? -1 : 1;
  if (x->faults != y->faults)
    return x->faults > y->faults ? -1 : 1;
  return 0;
}

static uint32_t
find (const uint32_t *ub, uint32_t n, uint32_t b)
{
  const uint32_t *p = bsearch (&b, ub, n, sizeof *ub, cmp_u32);
  return p ? (uint32_t) (p - ub) : UINT32_MAX;
}

/* The first I with UB[I] >= B.  */
static uint32_t
lower_bound (const uint32_t *ub, uint32_t n, uint32_t b)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi)
    {
      uint32_t mid = (lo + hi) / 2;
      if (ub[mid] < b)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo;
}

/* The bytes-moved bar chart: one stacked bar per object, by node.  */
static void
overview_chart (FILE *f, const struct rp_objs *o, const uint32_t *rank,
		uint32_t nr, int nodes, size_t bs)
{
  uint64_t max = 1;
  for (uint32_t i = 0; i < nr; i++)
    if (o->v[rank[i]].moved > max)
      max = o->v[rank[i]].moved;
  int w = 900, lw = 300, bh = 18;
  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	   "height=\"%u\" class=\"chart\" id=\"moved-chart\">\n", w,
	   nr * bh + 30);
  for (uint32_t i = 0; i < nr; i++)
    {
      const struct rp_obj *x = &o->v[rank[i]];
      double at = lw;
      fprintf (f, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">", lw - 6,
	       i * bh + 13);
      esc (f, x->name);
      fprintf (f, "</text>\n");
      for (int r = 0; r < nodes; r++)
	{
	  double len = (double) (x->node[r].fetched * bs
				 + x->node[r].diff_bytes)
		       / max * (w - lw - 110);
	  if (len <= 0)
	    continue;
	  fprintf (f, "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%d\" "
		   "fill=\"%s\"><title>node %d</title></rect>\n", at, i * bh + 2,
		   len, bh - 4, node_color[r % 8], r);
	  at += len;
	}
      char hb[32];
      fprintf (f, "<text x=\"%.1f\" y=\"%u\">%s</text>\n", at + 4,
	       i * bh + 13, human (x->moved, hb, sizeof hb));
    }
  for (int r = 0; r < nodes; r++)
    fprintf (f, "<rect x=\"%d\" y=\"%u\" width=\"12\" height=\"12\" "
	     "fill=\"%s\"/><text x=\"%d\" y=\"%u\">node %d</text>\n",
	     lw + 80 * r, nr * bh + 10, node_color[r % 8], lw + 80 * r + 16,
	     nr * bh + 21, r);
  fprintf (f, "</svg>\n");
}

/* One object's bar chart: faults, blocks fetched, diffs and
   invalidations per node.  */
static void
object_chart (FILE *f, const struct rp_obj *x, int nodes, uint32_t id)
{
  static const char *const what[4] = { "faults", "blocks fetched", "diffs",
				       "invalidations" };
  uint64_t max = 1;
  for (int r = 0; r < nodes; r++)
    {
      uint64_t v[4] = { x->node[r].rfaults + x->node[r].wfaults,
			x->node[r].fetched, x->node[r].diffs,
			x->node[r].invals };
      for (int k = 0; k < 4; k++)
	if (v[k] > max)
	  max = v[k];
    }
  int bh = 10, lw = 110, w = 520;
  int h = 4 * (nodes * bh + 6) + 4;
  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	   "height=\"%d\" class=\"chart\" id=\"obj-chart-%u\">\n", w, h, id);
  for (int k = 0; k < 4; k++)
    {
      int y0 = k * (nodes * bh + 6);
      fprintf (f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
	       lw - 6, y0 + nodes * bh / 2 + 5, what[k]);
      for (int r = 0; r < nodes; r++)
	{
	  uint64_t v[4] = { x->node[r].rfaults + x->node[r].wfaults,
			    x->node[r].fetched, x->node[r].diffs,
			    x->node[r].invals };
	  double len = (double) v[k] / max * (w - lw - 70);
	  fprintf (f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
		   "fill=\"%s\"><title>node %d: %lu</title></rect>"
		   "<text x=\"%.1f\" y=\"%d\" class=\"small\">%lu</text>\n",
		   lw, y0 + r * bh, len, bh - 1, node_color[r % 8], r,
		   (unsigned long) v[k], lw + len + 3, y0 + r * bh + 8,
		   (unsigned long) v[k]);
	}
    }
  fprintf (f, "</svg>\n");
}

/* The heat maps: per node, rows of the top objects' blocks, columns of
   time.  */
static void
heat_maps (FILE *f, const struct node_data *nd, int nodes,
	   const uint32_t *ub, uint32_t nub, const uint32_t *obj,
	   const struct rp_objs *o, const uint32_t *rank, uint32_t nr)
{
  uint32_t nh = nr < TOP_HEAT ? nr : TOP_HEAT;
  uint32_t *rowbase = malloc (o->n * sizeof *rowbase);
  uint32_t *rows = calloc (o->n, sizeof *rows);
  uint32_t *pos = malloc ((nub ? nub : 1) * sizeof *pos);
  uint32_t *seen = calloc (o->n, sizeof *seen);
  if (!rowbase || !rows || !pos || !seen)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < o->n; i++)
    rowbase[i] = UINT32_MAX;
  uint32_t total = 0;
  for (uint32_t i = 0; i < nh; i++)
    {
      const struct rp_obj *x = &o->v[rank[i]];
      rowbase[rank[i]] = total;
      rows[rank[i]] = x->nblocks < HEAT_ROWS ? x->nblocks : HEAT_ROWS;
      total += rows[rank[i]];
    }
  for (uint32_t i = 0; i < nub; i++)
    pos[i] = seen[obj[i]]++;
  uint64_t tmax = 1;
  for (int r = 0; r < nodes; r++)
    if (nd[r].h.t_end_ms > tmax)
      tmax = nd[r].h.t_end_ms;
  double *grid = calloc ((size_t) (total ? total : 1) * HEAT_COLS,
			 sizeof *grid);
  if (!grid)
    gomp_dsm_fatal ("out of memory for the sharing report");
  int cw = 12, rh = 8, lw = 300;
  for (int r = 0; r < nodes; r++)
    {
      memset (grid, 0, (size_t) total * HEAT_COLS * sizeof *grid);
      double vmax = 0;
      for (uint32_t k = 0; k < nd[r].h.nevents; k++)
	{
	  const struct gomp_dsm_revent *e = &nd[r].e[k];
	  uint32_t col = (uint64_t) e->t_ms * HEAT_COLS / (tmax + 1);
	  uint32_t cnt = e->kind == RK_FETCH || e->kind == RK_INVAL
			 ? e->count : 1;
	  if (col >= HEAT_COLS)
	    col = HEAT_COLS - 1;
	  uint64_t end = (uint64_t) e->block + cnt;
	  for (uint32_t i = lower_bound (ub, nub, e->block);
	       i < nub && ub[i] < end; i++)
	    {
	      if (rowbase[obj[i]] == UINT32_MAX)
		continue;
	      uint32_t ob = obj[i];
	      uint32_t row = rowbase[ob]
			     + (uint64_t) pos[i] * rows[ob] / seen[ob];
	      double *c = &grid[(size_t) row * HEAT_COLS + col];
	      *c += nd[r].h.weight;
	      if (*c > vmax)
		vmax = *c;
	    }
	}
      fprintf (f, "<h3>Node %d</h3>\n", r);
      if (nd[r].h.dropped)
	fprintf (f, "<p class=\"note\">The event log of this node was full "
		 "between two barriers: %lu events are not in the map "
		 "(counters above are exact).</p>\n",
		 (unsigned long) nd[r].h.dropped);
      int h = total * rh + 40, w = lw + HEAT_COLS * cw + 10;
      fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	       "height=\"%d\" class=\"heat\" id=\"heat-node-%d\">\n"
	       "<rect x=\"%d\" y=\"0\" width=\"%d\" height=\"%u\" "
	       "fill=\"#ffffff\" stroke=\"#999999\"/>\n", w, h, r, lw,
	       HEAT_COLS * cw, total * rh);
      for (uint32_t row = 0; row < total; row++)
	for (int col = 0; col < HEAT_COLS; col++)
	  {
	    double v = grid[(size_t) row * HEAT_COLS + col];
	    if (v <= 0)
	      continue;
	    double x = lg1p (v) / lg1p (vmax);
	    int g = (int) (235 * (1 - x));
	    fprintf (f, "<rect x=\"%d\" y=\"%u\" width=\"%d\" height=\"%d\" "
		     "fill=\"rgb(255,%d,%d)\"><title>%.0f events</title>"
		     "</rect>\n", lw + col * cw, row * rh, cw, rh, g, g / 2, v);
	  }
      for (uint32_t i = 0; i < nh; i++)
	{
	  uint32_t ob = rank[i];
	  fprintf (f, "<line x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\" "
		   "stroke=\"#999999\"/>\n<text x=\"%d\" y=\"%u\" "
		   "text-anchor=\"end\">", lw - 4, rowbase[ob] * rh,
		   lw + HEAT_COLS * cw, rowbase[ob] * rh, lw - 6,
		   rowbase[ob] * rh + (rows[ob] * rh) / 2 + 4);
	  esc (f, o->v[ob].name);
	  fprintf (f, "</text>\n");
	}
      for (int t = 0; t <= 4; t++)
	fprintf (f, "<text x=\"%d\" y=\"%u\" text-anchor=\"middle\">%.2f s"
		 "</text>\n", lw + t * HEAT_COLS * cw / 4, total * rh + 16,
		 (tmax + 1) * t / 4 / 1000.0);
      fprintf (f, "<text x=\"%d\" y=\"%u\" text-anchor=\"middle\">time since "
	       "start; darker: more faults, fetches, diffs and "
	       "invalidations</text>\n</svg>\n",
	       lw + HEAT_COLS * cw / 2, total * rh + 34);
    }
  free (grid);
  free (rowbase);
  free (rows);
  free (pos);
  free (seen);
}

static void
write_page (FILE *f, const struct node_data *nd, int nodes, size_t bs,
	    const uint32_t *ub, uint32_t nub, const uint32_t *obj,
	    const struct rp_objs *o, const uint32_t *rank, uint32_t nr)
{
  char prog[4096] = "the program", hb[32], adv[2048], nl[256];
  FILE *c = fopen ("/proc/self/cmdline", "r");
  if (c)
    {
      size_t n = fread (prog, 1, sizeof prog - 1, c);
      prog[n] = 0;
      fclose (c);
    }
  uint64_t tmax = 0, moved = 0, faults = 0, fs = 0;
  for (int r = 0; r < nodes; r++)
    if (nd[r].h.t_end_ms > tmax)
      tmax = nd[r].h.t_end_ms;
  for (uint32_t i = 0; i < o->n; i++)
    {
      moved += o->v[i].moved;
      faults += o->v[i].faults;
      fs += o->v[i].fs;
    }
  fputs ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html>\n"
	 "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	 "<meta charset=\"utf-8\"/>\n<title>ompcluster sharing report: ", f);
  esc (f, prog);
  fputs ("</title>\n<style>\nbody { font-family: sans-serif; margin: 2em; "
	 "color: #222; }\ntable { border-collapse: collapse; }\n"
	 "td, th { border: 1px solid #ccc; padding: 3px 6px; "
	 "vertical-align: top; }\nth { background: #eee; }\n"
	 "td.n { text-align: right; white-space: nowrap; }\n"
	 "svg text { font-size: 11px; font-family: sans-serif; }\n"
	 "svg text.small { font-size: 9px; }\n"
	 ".note { color: #666; }\n.advice { min-width: 18em; max-width: 40em; }\n"
	 "</style>\n</head>\n<body>\n<h1>Sharing report</h1>\n<p>Program <code>",
	 f);
  esc (f, prog);
  fprintf (f, "</code> on %d nodes, DSM block %zu bytes, %.2f s. The DSM "
	   "moved %s in all (blocks fetched and diffs sent), took %lu "
	   "faults, and saw %lu block-intervals written by several nodes "
	   "(false sharing).</p>\n", nodes, bs, tmax / 1000.0,
	   human (moved, hb, sizeof hb), (unsigned long) faults,
	   (unsigned long) fs);
  fputs ("<h2>Objects by bytes moved</h2>\n", f);
  uint32_t nt = nr < TOP_TABLE ? nr : TOP_TABLE;
  overview_chart (f, o, rank, nt, nodes, bs);
  fputs ("<table id=\"objects\">\n<tr><th>#</th><th>object</th><th>kind</th>"
	 "<th>size</th><th>bytes moved</th><th>node</th><th>faults (read / "
	 "write)</th><th>blocks fetched</th><th>diffs (bytes)</th>"
	 "<th>invalidations</th><th>false sharing</th><th>what to try</th>"
	 "</tr>\n", f);
  static const char *const kinds[] = { "global", "heap (call site)",
				       "stack", "other" };
  for (uint32_t i = 0; i < nt; i++)
    {
      const struct rp_obj *x = &o->v[rank[i]];
      advice (o, x, nodes, bs, adv, sizeof adv);
      node_list (x->fs_nodes, nl, sizeof nl);
      for (int r = 0; r < nodes; r++)
	{
	  const struct rp_node *p = &x->node[r];
	  fputs ("<tr>", f);
	  if (r == 0)
	    {
	      fprintf (f, "<td rowspan=\"%d\">%u</td><td rowspan=\"%d\" "
		       "class=\"object\"><a href=\"#obj-%u\">", nodes, i + 1,
		       nodes, i + 1);
	      esc (f, x->name);
	      fputs ("</a>", f);
	      char sh[600];
	      sharers (o, x, sh, sizeof sh);
	      if (sh[0])
		{
		  fputs ("<br/><span class=\"note\">its blocks also hold: ",
			 f);
		  esc (f, sh);
		  fputs ("</span>", f);
		}
	      fprintf (f, "</td><td rowspan=\"%d\">%s</td><td "
		       "rowspan=\"%d\" class=\"n\">", nodes, kinds[x->kind],
		       nodes);
	      if (x->size)
		fputs (human (x->size, hb, sizeof hb), f);
	      if (x->kind == RP_HEAP)
		fprintf (f, " in %u allocation%s", x->nallocs,
			 x->nallocs == 1 ? "" : "s");
	      fprintf (f, "</td><td rowspan=\"%d\" class=\"n\">%s</td>", nodes,
		       human (x->moved, hb, sizeof hb));
	    }
	  fprintf (f, "<td class=\"n\">%d</td><td class=\"n\">%lu / %lu</td>"
		   "<td class=\"n\">%lu</td><td class=\"n\">%lu (%s)</td>"
		   "<td class=\"n\">%lu</td>", r, (unsigned long) p->rfaults,
		   (unsigned long) p->wfaults, (unsigned long) p->fetched,
		   (unsigned long) p->diffs,
		   human (p->diff_bytes, hb, sizeof hb),
		   (unsigned long) p->invals);
	  if (r == 0)
	    {
	      fprintf (f, "<td rowspan=\"%d\" class=\"n\">", nodes);
	      if (x->fs)
		fprintf (f, "%lu intervals, nodes %s", (unsigned long) x->fs,
			 nl);
	      else
		fputs ("none seen", f);
	      fprintf (f, "</td><td rowspan=\"%d\" class=\"advice\">", nodes);
	      esc (f, adv);
	      fputs ("</td>", f);
	    }
	  fputs ("</tr>\n", f);
	}
    }
  fputs ("</table>\n", f);
  if (nr > nt)
    fprintf (f, "<p class=\"note\">%u more objects moved less.</p>\n",
	     nr - nt);
  fputs ("<h2>Blocks over time, per node</h2>\n<p class=\"note\">Rows: the "
	 "blocks of the top objects, in address order (several blocks per "
	 "row for large objects); columns: the run's time. A cell counts "
	 "the node's faults, blocks fetched, diffs and invalidations.</p>\n",
	 f);
  heat_maps (f, nd, nodes, ub, nub, obj, o, rank, nr);
  fputs ("<h2>Each object</h2>\n", f);
  for (uint32_t i = 0; i < nt; i++)
    {
      const struct rp_obj *x = &o->v[rank[i]];
      fprintf (f, "<h3 id=\"obj-%u\">%u. ", i + 1, i + 1);
      esc (f, x->name);
      fputs ("</h3>\n<p>", f);
      advice (o, x, nodes, bs, adv, sizeof adv);
      esc (f, adv);
      fprintf (f, " (%u blocks with activity; homes:", x->nblocks);
      for (int r = 0; r < nodes && r < 64; r++)
	fprintf (f, " node %d: %u", r, x->homes[r]);
      fputs (")</p>\n", f);
      object_chart (f, x, nodes, i + 1);
    }
  fputs ("<p class=\"note\">How to read this page: docs/report.md of "
	 "ompcluster. False sharing counts the barrier intervals in which "
	 "the write notices of two or more nodes named a block.</p>\n"
	 "</body>\n</html>\n", f);
}

bool
gomp_dsm_report_write (const char *path, void *const *bufs,
		       const size_t *lens, int nodes)
{
  struct node_data *nd = calloc (nodes, sizeof *nd);
  if (!nd)
    gomp_dsm_fatal ("out of memory for the sharing report");
  size_t total_b = 0, total_a = 0, bs = gomp_dsm.bsize;
  for (int r = 0; r < nodes; r++)
    {
      const char *p = bufs[r];
      if (lens[r] < sizeof nd[r].h)
	gomp_dsm_fatal ("corrupt sharing report from rank %d", r);
      memcpy (&nd[r].h, p, sizeof nd[r].h);
      size_t need = sizeof nd[r].h + nd[r].h.nblocks * sizeof *nd[r].b
		    + nd[r].h.nevents * sizeof *nd[r].e
		    + nd[r].h.nallocs * sizeof *nd[r].a;
      if (need != lens[r])
	gomp_dsm_fatal ("corrupt sharing report from rank %d", r);
      nd[r].b = (const void *) (p + sizeof nd[r].h);
      nd[r].e = (const void *) (nd[r].b + nd[r].h.nblocks);
      nd[r].a = (void *) (nd[r].e + nd[r].h.nevents);
      total_b += nd[r].h.nblocks;
      total_a += nd[r].h.nallocs;
    }
  /* Every block with counters on some node.  */
  uint32_t *ub = malloc ((total_b ? total_b : 1) * sizeof *ub), nub = 0;
  struct gomp_dsm_ralloc **al = malloc ((total_a ? total_a : 1)
					* sizeof *al);
  if (!ub || !al)
    gomp_dsm_fatal ("out of memory for the sharing report");
  uint32_t nal = 0;
  for (int r = 0; r < nodes; r++)
    {
      for (uint32_t i = 0; i < nd[r].h.nblocks; i++)
	if (nd[r].b[i].block < gomp_dsm.nblocks)
	  ub[nub++] = nd[r].b[i].block;
      for (uint32_t i = 0; i < nd[r].h.nallocs; i++)
	al[nal++] = &nd[r].a[i];
    }
  qsort (ub, nub, sizeof *ub, cmp_u32);
  uint32_t k = 0;
  for (uint32_t i = 0; i < nub; i++)
    if (!k || ub[k - 1] != ub[i])
      ub[k++] = ub[i];
  nub = k;
  struct rp_objs o = { NULL, 0, 0 };
  uint32_t *obj = gomp_dsm_report_attribute (ub, nub, al, nal, &o);
  int32_t *home = malloc ((nub ? nub : 1) * sizeof *home);
  if (!home)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < nub; i++)
    home[i] = -1;
  for (uint32_t i = 0; i < o.n; i++)
    if (!(o.v[i].node = calloc (nodes, sizeof *o.v[i].node)))
      gomp_dsm_fatal ("out of memory for the sharing report");
  for (int r = 0; r < nodes; r++)
    for (uint32_t j = 0; j < nd[r].h.nblocks; j++)
      {
	const struct gomp_dsm_rblock *b = &nd[r].b[j];
	uint32_t i = find (ub, nub, b->block);
	if (i == UINT32_MAX)
	  continue;
	struct rp_obj *x = &o.v[obj[i]];
	struct rp_node *p = &x->node[r];
	p->rfaults += b->c.rfaults;
	p->wfaults += b->c.wfaults;
	p->fetched += b->c.fetched;
	p->diffs += b->c.diffs;
	p->diff_bytes += b->c.diff_bytes;
	p->invals += b->c.invals;
	x->fs += b->c.fs;
	x->fs_nodes |= b->c.fs_nodes;
	if (b->home >= 0 && home[i] < 0)
	  home[i] = b->home;
      }
  for (uint32_t i = 0; i < nub; i++)
    {
      o.v[obj[i]].nblocks++;
      if (home[i] >= 0 && home[i] < 64)
	o.v[obj[i]].homes[home[i]]++;
    }
  uint32_t *rank = malloc ((o.n ? o.n : 1) * sizeof *rank), nr = 0;
  if (!rank)
    gomp_dsm_fatal ("out of memory for the sharing report");
  for (uint32_t i = 0; i < o.n; i++)
    {
      struct rp_obj *x = &o.v[i];
      for (int r = 0; r < nodes; r++)
	{
	  x->moved += x->node[r].fetched * bs + x->node[r].diff_bytes;
	  x->faults += x->node[r].rfaults + x->node[r].wfaults;
	}
      if (x->moved || x->faults || x->fs)
	rank[nr++] = i;
    }
  sort_objs = &o;
  qsort (rank, nr, sizeof *rank, cmp_rank);

  bool ok = true;
  FILE *f = fopen (path, "w");
  if (!f)
    {
      fprintf (stderr, "ompcluster: cannot write the sharing report %s "
	       "(OMPC_REPORT): %s\n", path, strerror (errno));
      ok = false;
    }
  else
    {
      write_page (f, nd, nodes, bs, ub, nub, obj, &o, rank, nr);
      if (fclose (f) != 0)
	{
	  fprintf (stderr, "ompcluster: cannot write the sharing report %s "
		   "(OMPC_REPORT): %s\n", path, strerror (errno));
	  ok = false;
	}
    }
  /* The summary.  */
  char hb[32], adv[2048];
  if (ok)
    fprintf (stderr, "ompcluster: sharing report written to %s\n", path);
  fprintf (stderr, "ompcluster: sharing report: top objects by bytes moved "
	   "between %d nodes:\n", nodes);
  for (uint32_t i = 0; i < nr && i < 5; i++)
    {
      const struct rp_obj *x = &o.v[rank[i]];
      uint64_t fetched = 0, diffs = 0;
      for (int r = 0; r < nodes; r++)
	{
	  fetched += x->node[r].fetched;
	  diffs += x->node[r].diffs;
	}
      advice (&o, x, nodes, bs, adv, sizeof adv);
      fprintf (stderr, "  %u. %s: %s moved (%lu blocks fetched, %lu diffs), "
	       "%lu faults, false sharing in %lu intervals\n     %s\n", i + 1,
	       x->name, human (x->moved, hb, sizeof hb),
	       (unsigned long) fetched, (unsigned long) diffs,
	       (unsigned long) x->faults, (unsigned long) x->fs, adv);
    }
  if (!nr)
    fprintf (stderr, "  (nothing: no block moved between the nodes)\n");
  for (uint32_t i = 0; i < o.n; i++)
    {
      free (o.v[i].name);
      free (o.v[i].node);
    }
  free (o.v);
  free (rank);
  free (home);
  free (obj);
  free (ub);
  free (al);
  free (nd);
  return ok;
}

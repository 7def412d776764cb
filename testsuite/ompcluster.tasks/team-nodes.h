/* How many nodes a team spans, for the tests of tasks that move: the
   number of distinct process ids among the N its threads stored in
   PIDS (each node is one process).  */
static int
team_nodes (const int *pids, int n)
{
  int nodes = 0;
  for (int t = 0; t < n; t++)
    {
      int seen = 0;
      for (int u = 0; u < t; u++)
	seen |= pids[u] == pids[t];
      nodes += !seen;
    }
  return nodes;
}

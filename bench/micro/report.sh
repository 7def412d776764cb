#!/bin/sh
# report.sh -- the tables of single-node.md from run.sh's raw samples.
#
#   report.sh RAW FAILS "TESTS" "THREADS"
#
# RAW:   lines "RUNTIME TEST THREADS OVERHEAD_US", one per sample
# FAILS: lines "RUNTIME TEST THREADS REASON..." ('*' matches any)
# Prints, per thread count, a Markdown table of median overheads with their
# interquartile range, and the ratios ours/libgomp and ours/libomp (medians
# floored at 0.01 us), then the geometric mean of ours/libgomp.

raw=$1
fails=$2
tests=$3
threads=$4

sort -k1,1 -k2,2 -k3,3n -k4,4g "$raw" | awk -v tests="$tests" -v threads="$threads" '
function pct(key, n, p,   x, i, f) {
  x = (n - 1) * p; i = int(x); f = x - i
  if (i + 1 < n) return v[key, i] * (1 - f) + v[key, i + 1] * f
  return v[key, i]
}
function floor01(x) { return x < 0.01 ? 0.01 : x }
function cell(rt, t, n,   k, r) {
  k = rt SUBSEP t SUBSEP n
  r = failure(rt, t, n)
  if (r ~ /^not (built|run)/) return r
  if (r != "") return "**failed**: " r
  if (!(k in cnt)) return "not run"
  return sprintf("%.3f [%.3f, %.3f]%s", med[k], q1[k], q3[k], noisy(k) ? " †" : "")
}
# A cell whose interquartile range is wider than its median (and than the
# resolution of the method) says more about the machine than about the runtime.
function noisy(k,   m) {
  m = med[k] < 0 ? -med[k] : med[k]
  if (m < 0.05) m = 0.05
  return q3[k] - q1[k] > m
}
function failure(rt, t, n,   k) {
  if ((rt SUBSEP t SUBSEP n) in why) return why[rt, t, n]
  if ((rt SUBSEP "*" SUBSEP "*") in why) return why[rt, "*", "*"]
  return ""
}
function ratio(a, b, t, n,   ka, kb) {
  ka = a SUBSEP t SUBSEP n; kb = b SUBSEP t SUBSEP n
  if (!(ka in cnt) || !(kb in cnt) || failure(a, t, n) != "" || failure(b, t, n) != "")
    return ""
  return floor01(med[ka]) / floor01(med[kb])
}
FILENAME == "-" || FILENAME == "" {
  k = $1 SUBSEP $2 SUBSEP $3
  v[k, cnt[k] + 0] = $4; cnt[k]++
  next
}
{
  r = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", r)
  if (!(($1 SUBSEP $2 SUBSEP $3) in why)) why[$1, $2, $3] = r
}
END {
  for (k in cnt) {
    n = cnt[k]
    med[k] = pct(k, n, 0.5); q1[k] = pct(k, n, 0.25); q3[k] = pct(k, n, 0.75)
  }
  nt = split(tests, T, " "); nn = split(threads, N, " ")
  for (j = 1; j <= nn; j++) {
    n = N[j]
    printf "## %d thread%s\n\n", n, n == 1 ? "" : "s"
    print "| construct | ours | libgomp | libomp | ours/libgomp | ours/libomp |"
    print "| --- | --- | --- | --- | --- | --- |"
    lsum = 0; lcnt = 0; over = ""; worst = 0; missing = ""; nnoisy = 0; ncells = 0
    for (i = 1; i <= nt; i++) {
      t = T[i]
      a = ratio("ours", "libgomp", t, n); b = ratio("ours", "libomp", t, n)
      for (z = 1; z <= 3; z++) {
        rk = (z == 1 ? "ours" : z == 2 ? "libgomp" : "libomp") SUBSEP t SUBSEP n
        if ((rk in cnt) && noisy(rk)) nnoisy++
        if (rk in cnt) ncells++
      }
      printf "| %s | %s | %s | %s | %s | %s |\n", t, cell("ours", t, n),
        cell("libgomp", t, n), cell("libomp", t, n),
        a == "" ? "–" : sprintf("%.2f", a), b == "" ? "–" : sprintf("%.2f", b)
      if (a != "") {
        lsum += log(a); lcnt++
        if (a > 1.25) over = over " " t sprintf(" (%.2f)", a)
      } else missing = missing " " t
    }
    print ""
    if (lcnt > 0)
      printf "Geometric mean of ours/libgomp at %d thread%s over %d construct%s: **%.2f**.\n",
        n, n == 1 ? "" : "s", lcnt, lcnt == 1 ? "" : "s", exp(lsum / lcnt)
    else
      printf "Geometric mean of ours/libgomp at %d thread%s: none (ours not measured).\n",
        n, n == 1 ? "" : "s"
    if (lcnt > 0)
      printf "Constructs above 1.25× libgomp:%s.\n", over == "" ? " none" : over
    if (missing != "" && lcnt > 0)
      printf "Not in the mean (failed or not run):%s.\n", missing
    printf "Cells marked † (interquartile range wider than the median): %d of %d.\n", nnoisy, ncells
    print ""
  }
}' "$fails" -

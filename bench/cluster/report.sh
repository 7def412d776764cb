#!/bin/sh
# report.sh -- the tables of cluster.md from run.sh's KEY VALUE file.
#
#   report.sh TAB "APPS" "MICRO_TESTS" RUNS "PARTS"
#
# TAB lines: floor_NAME MEDIAN MIN | floor_failed REASON |
# micro_PxT_TEST MEDIAN MIN | micro_PxT_TEST failed: ... / not run: ... |
# app_APP_CONFIG_RUN TIME CHECK BYTES MSGS | ... failed: / not run: ... |
# build_NAME REASON.

tab=$1
apps=$2
micro=$3
runs=$4
parts=$5

awk -v apps="$apps" -v micro="$micro" -v runs="$runs" -v parts="$parts" '
function isnum(x) { return x ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
function rest(   s) { s = $0; sub(/^[^ ]+ /, "", s); return s }
function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++)
    for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  if (n == 0) return ""
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function bytes(x) {
  if (!isnum(x)) return x
  if (x >= 1048576) return sprintf("%.1f MiB", x / 1048576)
  if (x >= 1024) return sprintf("%.1f KiB", x / 1024)
  return x " B"
}
{ val[$1] = rest() }
/^app_/ {
  key = substr($1, 5); sub(/_[0-9]+$/, "", key)	# APP_CONFIG (APP may hold "_")
  if (isnum($2)) {
    times[key] = times[key] " " $2; checks[key] = checks[key] " " $3
    if (isnum($4)) { by[key] = by[key] " " $4; ms[key] = ms[key] " " $5 }
    else if ($4 != "-") nostats[key] = $4
    ok[key]++
  } else if (!(key in err)) err[key] = rest()
}
/^warm_/ { key = substr($1, 6); sub(/_[0-9]+$/, "", key); if (isnum($2)) warms[key] = warms[key] " " $2 }
/^dsm_/ { key = substr($1, 5); sub(/_[0-9]+$/, "", key); if (!(key in dsm)) dsm[key] = rest() }
END {
  # ---- floor
  nf = split("rtt_8b rtt_4k barrier bcast_8b bcast_barrier allreduce_8b fault_cycle fault_cycle_busy", F, " ")
  desc["rtt_8b"] = "round trip, 8 B (ping-pong)"
  desc["rtt_4k"] = "round trip, 4 KiB"
  desc["barrier"] = "MPI_Barrier"
  desc["bcast_8b"] = "MPI_Bcast, 8 B (back to back)"
  desc["bcast_barrier"] = "MPI_Bcast 8 B + MPI_Barrier"
  desc["allreduce_8b"] = "MPI_Allreduce, one double"
  desc["fault_cycle"] = "mprotect(NONE) → read fault → handler mprotect(RW)"
  desc["fault_cycle_busy"] = "the same, another thread busy on the other core"
  print "## 1. The floor (MPI and the kernel alone, 2 ranks)"
  print ""
  if ("floor_failed" in val) print "not run: " val["floor_failed"] "\n"
  else if (parts !~ /floor/) print "not run: part not selected\n"
  else {
    print "| what | median µs | min µs |"
    print "| --- | --- | --- |"
    for (i = 1; i <= nf; i++) {
      split(val["floor_" F[i]], v, " "); fl[F[i]] = v[1]
      printf "| %s | %s | %s |\n", desc[F[i]], v[1] == "" ? "missing" : v[1], v[2]
    }
    print ""
  }
  # ---- micro
  map["barrier"] = "barrier";           mdesc["barrier"] = "MPI_Barrier"; bar["barrier"] = 2
  map["parallel"] = "bcast_barrier";    mdesc["parallel"] = "Bcast + Barrier"; bar["parallel"] = 3
  map["read_fault"] = "rtt_4k+fault_cycle"; mdesc["read_fault"] = "4 KiB round trip + fault cycle"; bar["read_fault"] = 1.5
  map["read_fault_cold"] = "rtt_4k+fault_cycle"; mdesc["read_fault_cold"] = "4 KiB round trip + fault cycle"
  map["read_fault_busy"] = "rtt_4k+fault_cycle"; mdesc["read_fault_busy"] = "4 KiB round trip + fault cycle"
  map["read_seq_cold"] = "rtt_4k";      mdesc["read_seq_cold"] = "4 KiB round trip (per page; runs are fetched)"
  map["write_fault"] = "fault_cycle";   mdesc["write_fault"] = "fault cycle"
  map["write_fault_absent"] = "rtt_4k+fault_cycle"; mdesc["write_fault_absent"] = "4 KiB round trip + fault cycle"
  map["lock"] = "rtt_8b";               mdesc["lock"] = "8 B round trip"
  map["critical"] = "rtt_8b";           mdesc["critical"] = "8 B round trip"
  map["atomic"] = "rtt_8b";             mdesc["atomic"] = "8 B round trip"
  map["dynamic"] = "rtt_8b";            mdesc["dynamic"] = "8 B round trip"
  map["single"] = "barrier";            mdesc["single"] = "MPI_Barrier"
  map["reduction"] = "allreduce_8b";    mdesc["reduction"] = "MPI_Allreduce"
  nm = split(micro, M, " ")
  print "## 2. Our costs across nodes (µs per operation: median of 7 samples in a process; the median of " ENVIRON["BENCH_MICRO_RUNS"] " processes)"
  print ""
  if (parts !~ /micro/) print "not run: part not selected\n"
  else {
    print "Each construct is timed by a plain OpenMP program (`bench/cluster/cmicro.c`,"
    print "built with `bin/ompcc`, launched with `bin/ompcrun -n P -t T`). Contended"
    print "operations (lock, critical, atomic, dynamic chunk) are per operation of one"
    print "thread with every thread contending; faults are single accesses by a thread"
    print "of node 1 to pages homed on node 0, in scattered order, pages it read before"
    print "(read_fault_cold: pages it never used, whose first touch on each node costs"
    print "the kernel a page fault; read_seq_cold: 4 MiB of such pages read in sequence,"
    print "per page, which the DSM fetches in runs); read_fault_busy is"
    print "read_fault while node 0'"'"'s thread computes instead of waiting in the region'"'"'s"
    print "barrier (where a waiting thread answers at once), the reader computing ~100 µs"
    print "between faults: what a remote page costs while its home works. The bar is issue 7'"'"'s."
    print ""
    print "| construct | 2×1 | 2×2 (oversubscribed) | floor it maps to | floor µs | 2×1 / floor | 2×2 / floor | bar |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- |"
    for (i = 1; i <= nm; i++) {
      t = M[i]
      n = split(map[t], parts_, "+"); f = 0; have = 1
      for (j = 1; j <= n; j++) { if (!isnum(fl[parts_[j]])) have = 0; f += fl[parts_[j]] }
      line = "| " t
      for (c = 1; c <= 2; c++) {
        cf = c == 1 ? "2x1" : "2x2"
        s = val["micro_" cf "_" t]; split(s, v, " ")
        r[c] = ""
        if (isnum(v[1])) { line = line " | " fmt(v[1]); if (have && f > 0) r[c] = v[1] / f }
        else line = line " | " (s == "" ? "not run" : s)
      }
      line = line " | " mdesc[t] " | " (have ? fmt(f) : "not measured")
      for (c = 1; c <= 2; c++) line = line " | " (r[c] == "" ? "–" : sprintf("%.2f", r[c]))
      if (bar[t] != "") line = line " | ≤ " bar[t] "×" (r[1] == "" ? "" : r[1] <= bar[t] ? " **met**" : " **missed**")
      else line = line " | –"
      print line " |"
    }
    print ""
    print "### The hybrid effect (same total threads: fewer nodes with more threads each)"
    print ""
    print "1×2 is our runtime on one node (no MPI, no DSM); 4×1 and 2×2 oversubscribe the"
    print "2 cores. \"yes\" when the hybrid configuration is the faster one."
    print ""
    print "| construct | 1×2 | 2×1 | hybrid faster | 2×2 | 4×1 | hybrid faster |"
    print "| --- | --- | --- | --- | --- | --- | --- |"
    wins[1] = wins[2] = total[1] = total[2] = 0
    for (i = 1; i <= nm; i++) {
      t = M[i]; line = "| " t
      for (pp = 1; pp <= 2; pp++) {
        h = pp == 1 ? "1x2" : "2x2"; o = pp == 1 ? "2x1" : "4x1"
        split(val["micro_" h "_" t], ha, " "); split(val["micro_" o "_" t], hb, " ")
        line = line " | " (isnum(ha[1]) ? fmt(ha[1]) : (val["micro_" h "_" t] == "" ? "not run" : val["micro_" h "_" t]))
        line = line " | " (isnum(hb[1]) ? fmt(hb[1]) : (val["micro_" o "_" t] == "" ? "not run" : val["micro_" o "_" t]))
        if (isnum(ha[1]) && isnum(hb[1])) { total[pp]++; if (ha[1] + 0 < hb[1] + 0) { wins[pp]++; line = line " | yes" } else line = line " | **no**" }
        else line = line " | –"
      }
      print line " |"
    }
    print ""
    printf "Hybrid faster: 1×2 against 2×1 (what fits the 2 cores: the bar) in %d of %d constructs%s; ", wins[1], total[1], total[1] && wins[1] == total[1] ? " (**met**)" : " (**missed**)"
    printf "2×2 against 4×1 (both oversubscribed here: the issue asks for it where cores allow, shown for information) in %d of %d.\n\n", wins[2], total[2]
  }
  # ---- apps
  na = split(apps, A, " ")
  size["jacobi"] = "2048×2048, 500 sweeps"; size["matmul"] = "1536×1536 doubles"
  size["ep"] = "2^27 pairs"; size["cg"] = "N = 2^19, 15 nonzeros a row, 100 iterations"
  size["is"] = "2^23 keys < 2^20, 10 sorts (after an untimed one)"
  size["is_npb"] = "as is, keys scattered bucket-major as in the OpenMP IS of NPB (MPI: is_mpi again)"
  print "## 3. Applications (seconds, median of " runs " runs)"
  print ""
  if (parts !~ /apps/) print "not run: part not selected"
  else print_apps()
}
function print_apps(   pp, i, a, g, m, o, tg, tm, to, rt, mb, ob, rb, d) {
  print "Each written twice (`bench/apps/APP_omp.c`, `APP_mpi.c`): same algorithm, same"
  print "static distribution of the data. Ours: the OpenMP version built with `bin/ompcc`,"
  print "run with `OMPC_STATS=1 bin/ompcrun -n P -t 1`; bytes and messages sent by all"
  print "ranks as `OMPC_STATS` reports them (the cluster module'"'"'s collectives, one per"
  print "rank each, plus every point-to-point message, DSM traffic included), over the"
  print "whole run. MPI: counted by the program over the whole run (point-to-point"
  print "exactly, reductions as their textbook algorithm: see `bench/apps/mpicount.h`)."
  print "libgomp: the OpenMP version built with plain `gcc -fopenmp`, 1 node × 2 threads."
  print "Every run checks its own result; \"agree\" compares the check values of all the"
  print "versions (relative difference ≤ 1e-9)."
  print ""
  for (pp = 2; pp <= 4; pp += 2) {
    if (pp == 2) print "### 2 nodes (1 thread each) against 2 MPI ranks"
    else print "### 4 nodes (1 thread each) against 4 MPI ranks — oversubscribed: 4 processes on 2 cores"
    print ""
    print "| application | size | libgomp 1×2 | MPI | ours | ours / MPI | MPI bytes (msgs) | ours bytes (msgs) | bytes ours / MPI | results agree |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for (i = 1; i <= na; i++) {
      a = A[i]; g = a "_gomp"; m = a "_mpi" pp; o = a "_ours" pp
      tg = cellt(g); tm = cellt(m); to = cellt(o)
      rt = ok[m] && ok[o] ? sprintf("%.2f", median(times[o]) / median(times[m])) : "–"
      mb = ok[m] ? bytes(median(by[m])) " (" median(ms[m]) ")" : "–"
      ob = ok[o] ? (o in nostats || by[o] == "" ? "n/a (no OMPC_STATS figures in the output)" : bytes(median(by[o])) " (" median(ms[o]) ")") : "–"
      rb = ok[m] && ok[o] && by[o] != "" && median(by[m]) > 0 ? sprintf("%.2f", median(by[o]) / median(by[m])) : "–"
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a, size[a], pp == 2 ? tg : "–", tm, to, rt, mb, ob, rb, agree(a, pp)
    }
    print ""
    for (i = 1; i <= na; i++) {
      a = A[i]; g = a "_gomp"; m = a "_mpi" pp; o = a "_ours" pp
      if (!(m in warms) && !(o in warms)) continue
      printf "%s: the times leave out NPB'"'"'s untimed first iteration, which took (median) %s%s s with MPI and %s s with ours.\n", a, pp == 2 && (g in warms) ? fmt(median(warms[g])) " s with libgomp, " : "", m in warms ? fmt(median(warms[m])) : "–", o in warms ? fmt(median(warms[o])) : "–"
    }
    print ""
    print "What the DSM did in the first successful run of ours (`OMPC_STATS`, summed over the ranks; regions and barriers as one rank counts them):"
    print ""
    print "| application | regions | barriers | read faults | write faults | pages fetched | diffs sent | write notices | invalidations |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for (i = 1; i <= na; i++) {
      a = A[i]; o = a "_ours" pp
      if (!(o in dsm)) { printf "| %s | – | – | – | – | – | – | – | – |\n", a; continue }
      split(dsm[o], d, " ")
      printf "| %s | %s | %s | %s | %s | %s (%s) | %s (%s) | %s | %s |\n", a, d[1], d[2], d[3], d[4], d[5], bytes(d[6]), d[7], bytes(d[8]), d[9], d[10]
    }
    print ""
  }
}
function cellt(k) {
  if (ok[k] && !(k in err)) return fmt(median(times[k]))
  if (ok[k]) return fmt(median(times[k])) " (" ok[k] " of " runs " runs; one " err[k] ")"
  if (k in err) return err[k]
  return "not run"
}
function agree(a, pp,   keys, n, i, j, c, ref, x, d, bad, seen) {
  n = split(a "_gomp " a "_mpi" pp " " a "_ours" pp, keys, " ")
  ref = ""; bad = 0; seen = 0
  for (i = 1; i <= n; i++) {
    if (!ok[keys[i]]) continue
    c = split(checks[keys[i]], x, " ")
    for (j = 1; j <= c; j++) {
      seen++
      if (ref == "") { ref = x[j]; continue }
      d = x[j] - ref; if (d < 0) d = -d
      if (d > 1e-9 * (ref < 0 ? -ref : ref)) bad++
    }
  }
  if (seen < 2) return "–"
  return bad ? "**no** (" bad " differ)" : "yes"
}' "$tab"

#!/bin/sh
# report.sh -- the bench-npb report, in Markdown on stdout, from what
# run.sh gathered:
#
#   report.sh RUNS.tab STATS.tab
#
# RUNS.tab has one line per launch: "CLASS BENCH CONFIG RUN WALL NPBTIME
# STATUS..." (CONFIG "stats" is the OMPC_STATS run; RUN 0 with a status
# and no times is a build failure); STATS.tab "CLASS BENCH RANK KEY VALUE"
# (stats.awk).  The facts about the run come in NPB_* variables (run.sh).
#
# A cell holds the median of the launches and their spread (max - min),
# only when every launch verified; otherwise it says what went wrong and
# in how many launches.  The cause of each benchmark is read from its
# statistics run, as the largest of these costs, in milliseconds of one
# rank: its remote calls (a thread waits for a page on a fault, a remote
# lock or a dynamic chunk), its releases (diffs and write notices), its
# acquires (invalidations, prefetches), the barriers' own cost (what the
# rank that waited least still spent in them beyond releasing and
# acquiring: the exchange itself), and imbalance (what the other ranks
# waited in barriers beyond that, for the one that was late).

set -u
tab=$1
stab=$2
here=$(cd "$(dirname "$0")" && pwd)
# The statistics are read again from the kept stderr of every statistics
# run (logs/BENCH.CLASS.CONFIG.stats.err beside RUNS.tab) when there are
# such files, so that the report follows stats.awk.
logs=$(dirname "$tab")/logs
if ls "$logs"/*.stats.err > /dev/null 2>&1; then
  for f in "$logs"/*.stats.err; do
    n=$(basename "$f")
    b=${n%%.*}
    c=${n#*.}
    c=${c%%.*}
    awk -f "$here/stats.awk" "$f" | sed "s/^/$c $b /"
  done > "$stab.tmp" && mv "$stab.tmp" "$stab"
fi

cat <<EOF
# NPB 3.0 (OpenMP C) on ompcluster

Written by \`make bench-npb\`, started ${NPB_DATE}, last written ${NPB_END},
runtime ${NPB_COMMIT}. Reproduce with (from a configured build tree):

    ${NPB_COMMAND:-make bench-npb NPB_DIR=.../$NPB_SRC_NAME}

$( [ "${NPB_DONE:-yes}" = yes ] || printf '%s\n\n' "**Incomplete: the run was still going or was interrupted when this was written; what is missing did not run.**")
What ran: ${NPB_PLAN_TEXT:-?}.

NPB's sources: \`${NPB_SRC_NAME}\` (NPB_DIR), unmodified, copied into the
build tree and built twice with a generated \`config/make.def\`: **ours**
with \`bin/ompcc -O2\`, **GCC** with plain \`gcc -fopenmp -O2\` (GCC's
libgomp). Both are compiled with \`-include bench/npb/timer-proto.h\`, the
prototype \`double timer_read(int);\` that IS lacks.

Machine: ${NPB_NPROC} cores ($(echo "$NPB_MODEL" | tr '_' ' ')). Every
"node" is an MPI rank on this one machine (MPICH over shared memory), so
nodes share its cores: a configuration with more threads in all than
cores is **oversubscribed** (marked) and its times say little about a
real cluster. Load average at the start ${NPB_LOAD_START}, at the end
${NPB_LOAD_END}; runs at \`nice -n ${NPB_NICE}\`.${NPB_NOTE:+ $NPB_NOTE}

Each cell: the median over ${NPB_RUNS} of NPB's "Time in seconds"
and, after ±, their spread (max − min; none for one launch). A launch counts only when NPB
printed \`Verification = SUCCESSFUL\` and the program ended with status 0
within ${NPB_TIMEOUT}; a cell with any other launch shows that instead of
a time (after a time-out the configuration is not launched again).
Configurations: N×T is ours at N nodes × T threads (\`bin/ompcrun -n N -t T\`;
1×1 and 1×2 are one process, no MPI), "GCC 1×T" the GCC build with
\`OMP_NUM_THREADS=T\`.
EOF

awk -v nproc="$NPB_NPROC" -v statcfg="$NPB_STATS" '
function cfgname(c,   x, v) {
  x = c; sub(/,.*/, "", x); sub(/x/, "×", x)
  v = (c ~ /,/) ? c : ""; sub(/^[^,]*,/, "", v); gsub(/,/, " ", v)
  if (v != "") v = " " v
  if (x ~ /^gcc-/) return "GCC " substr(x, 5) v
  return x v
}
function oversub(c,   n, t, p) {
  p = c; sub(/^gcc-/, "", p); sub(/,.*/, "", p)
  split(p, a, "x")
  return a[1] * a[2] > nproc
}
function head(c) { return cfgname(c) (oversub(c) ? " (oversubscribed)" : "") }
function fmt(x) {
  if (x >= 100) return sprintf("%.0f", x)
  if (x >= 10) return sprintf("%.1f", x)
  return sprintf("%.2f", x)
}
function median(list,   n, v, i, j, x) {
  n = split(list, v, " ")
  for (i = 2; i <= n; i++) {	# insertion sort, n is small
    x = v[i] + 0
    for (j = i - 1; j >= 1 && v[j] + 0 > x; j--) v[j + 1] = v[j]
    v[j + 1] = x
  }
  if (n % 2) return v[(n + 1) / 2] + 0
  return (v[n / 2] + v[n / 2 + 1]) / 2
}
function spread(list,   n, v, i, lo, hi) {
  n = split(list, v, " ")
  lo = hi = v[1] + 0
  for (i = 2; i <= n; i++) { if (v[i] + 0 < lo) lo = v[i] + 0; if (v[i] + 0 > hi) hi = v[i] + 0 }
  return hi - lo
}
function addlist(k, v) { L[k] = (k in L) ? L[k] " " v : v }
FILENAME == ARGV[1] {
  cl = $1; b = $2; c = $3
  if (!(cl in CLS)) { CLS[cl] = 1; clorder[++ncl] = cl }
  if (!((cl, b) in BN)) { BN[cl, b] = 1; border[cl, ++nb[cl]] = b }
  if (c != "stats" && !((cl, c) in CN)) { CN[cl, c] = 1; corder[cl, ++nc[cl]] = c }
  if ($4 == 0) {		# build failure: the rest is the reason
    st = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", st)
    BUILD[cl, b, c] = st
    next
  }
  st = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", st)
  k = cl SUBSEP b SUBSEP c
  N[k]++
  if (st == "ok") { OK[k]++; addlist(k SUBSEP "t", $6); addlist(k SUBSEP "w", $5) }
  else { BAD[k]++; if (!(k in WHY)) WHY[k] = st; else if (WHY[k] != st) WHY[k] = WHY[k] "; " st }
  next
}
{			# CLASS BENCH RANK KEY VALUE
  S[$1, $2, $3, $4] = $5
  if ($4 ~ /^kind_ms:/) KINDS[substr($4, 9)] = 1
  if ($3 + 1 > NR_[$1, $2]) NR_[$1, $2] = $3 + 1
  next
}
function cell(k, what,   x) {
  if (k in BUILD) return "**not built**"
  if (!(k in N)) return "–"
  if (BAD[k]) {
    x = "**" WHY[k] "**"
    if (OK[k]) x = x " (" BAD[k] " of " N[k] " launches)"
    return x
  }
  if (N[k] == 1) return fmt(median(L[k SUBSEP what]))
  return fmt(median(L[k SUBSEP what])) " ±" fmt(spread(L[k SUBSEP what]))
}
function good(k) { return (k in N) && !BAD[k] && !(k in BUILD) }
function sv(cl, b, r, key) { return S[cl, b, r, key] + 0 }
# The three kinds of call rank R waited longest for (OMPC_STATS calls by
# kind; KINDS holds every name the statistics gave), as "page-fetch N (T
# ms), ..."; empty without that line.
function kinds(cl, b, r,    nm, k, best, bn, out, used) {
  out = ""
  for (k = 0; k < 3; k++) {
    best = 0; bn = ""
    for (nm in KINDS)
      if (!(nm in used) && sv(cl, b, r, "kind_ms:" nm) > best) { best = sv(cl, b, r, "kind_ms:" nm); bn = nm }
    if (bn == "" || best < 1) break
    used[bn] = 1
    out = out (out == "" ? "" : ", ") sprintf("%s %d (%.0f ms)", bn, sv(cl, b, r, "kind:" bn), best)
  }
  return out
}
function perrank(cl, b, key, scale, fmtc,   r, x) {
  x = ""
  for (r = 0; r < NR_[cl, b]; r++)
    x = x (r ? " / " : "") sprintf(fmtc, sv(cl, b, r, key) * scale)
  return x
}
function total(cl, b, key,   r, x) {
  x = 0
  for (r = 0; r < NR_[cl, b]; r++) x += sv(cl, b, r, key)
  return x
}
END {
  for (ci = 1; ci <= ncl; ci++) {
    cl = clorder[ci]
    printf "\n## Class %s\n\n### Seconds as NPB reports (median ±spread)\n\n", cl
    line = "| benchmark |"; sep = "| --- |"
    for (j = 1; j <= nc[cl]; j++) { line = line " " head(corder[cl, j]) " |"; sep = sep " --- |" }
    print line; print sep
    for (i = 1; i <= nb[cl]; i++) {
      b = border[cl, i]; line = "| " toupper(b) " |"
      for (j = 1; j <= nc[cl]; j++) {
        c = corder[cl, j]; k = cl SUBSEP b SUBSEP c
        line = line " " ((cl SUBSEP b SUBSEP c) in BUILD ? "**not built**" : cell(k, "t")) " |"
      }
      print line
    }

    printf "\n### Speed-up over ours at 1×1 (median NPB time at 1×1 / median here)\n\n"
    printf "A time NPB prints as 0.00 gives no ratio (\"–\"); see the wall-clock table.\n\n"
    line = "| benchmark |"; sep = "| --- |"
    for (j = 1; j <= nc[cl]; j++) { line = line " " head(corder[cl, j]) " |"; sep = sep " --- |" }
    print line; print sep
    for (i = 1; i <= nb[cl]; i++) {
      b = border[cl, i]; line = "| " toupper(b) " |"
      k1 = cl SUBSEP b SUBSEP "1x1"
      t1 = good(k1) ? median(L[k1 SUBSEP "t"]) : 0
      for (j = 1; j <= nc[cl]; j++) {
        c = corder[cl, j]; k = cl SUBSEP b SUBSEP c
        if (good(k) && t1 > 0 && median(L[k SUBSEP "t"]) > 0)
          x = t1 / median(L[k SUBSEP "t"]) < 0.1 \
              ? sprintf("%.2g", t1 / median(L[k SUBSEP "t"])) \
              : sprintf("%.2f", t1 / median(L[k SUBSEP "t"]))
        else if ((k in N) && !good(k)) x = "failed"
        else x = "–"
        line = line " " x " |"
      }
      print line
    }

    printf "\n### Wall-clock seconds of the whole launch (median ±spread)\n\n"
    printf "Start-up, MPI and the untimed parts of NPB included.\n\n"
    line = "| benchmark |"; sep = "| --- |"
    for (j = 1; j <= nc[cl]; j++) { line = line " " head(corder[cl, j]) " |"; sep = sep " --- |" }
    print line; print sep
    for (i = 1; i <= nb[cl]; i++) {
      b = border[cl, i]; line = "| " toupper(b) " |"
      for (j = 1; j <= nc[cl]; j++) {
        c = corder[cl, j]; k = cl SUBSEP b SUBSEP c
        line = line " " cell(k, "w") " |"
      }
      print line
    }

    # The statistics run.
    any = 0
    for (i = 1; i <= nb[cl]; i++) if ((cl, border[cl, i]) in NR_) any = 1
    if (!any) continue
    printf "\n### OMPC_STATS at %s (one more launch with OMPC_STATS=1)\n\n", cfgname(statcfg)
    printf "Counts are summed over the ranks; times (ms) are given per rank, rank 0 first. "
    printf "\"barriers\" counts one rank'\''s barriers and their time includes the releases and "
    printf "acquires done in them; \"remote calls\" are the requests a thread waited for "
    printf "(pages on faults, remote locks, dynamic chunks). \"processor ms\" is the "
    printf "processor time each rank'\''s process got, its service thread'\''s share in "
    printf "parentheses: far below the launch'\''s wall-clock time, the rank waited or the "
    printf "machine was busy with other work.\n\n"
    print "| benchmark | NPB s | regions | barriers | barrier ms | read / write faults | pages fetched (MiB) | diffs (KiB) | write notices | invalidations | homes moved | remote locks / atomics | remote calls (ms waiting) | release ms | acquire ms (prefetching) | serving pages ms | launch s | processor ms (service thread) |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for (i = 1; i <= nb[cl]; i++) {
      b = border[cl, i]
      ks = cl SUBSEP b SUBSEP "stats"
      if (!((cl, b) in NR_) || NR_[cl, b] == 0) {
        if (ks in N) {
          x = sprintf("| %s | **%s** | no statistics printed |", toupper(b), WHY[ks] ? WHY[ks] : "?")
          for (j = 0; j < 15; j++) x = x " |"
          print x
        }
        continue
      }
      ts = good(ks) ? L[ks SUBSEP "t"] : "**" WHY[ks] "**"
      printf "| %s | %s | %d | %d | %s | %d / %d | %d (%.1f) | %d (%.1f) | %d | %d | %s | %d / %d | %d (%s) | %s | %s | %s | %s | %s (%s) |\n",
        toupper(b), ts, sv(cl, b, 0, "regions"), sv(cl, b, 0, "barriers"),
        perrank(cl, b, "barrier_ms", 1, "%.0f"),
        total(cl, b, "read_faults"), total(cl, b, "write_faults"),
        total(cl, b, "pages"), total(cl, b, "page_bytes") / 1048576,
        total(cl, b, "diffs"), total(cl, b, "diff_bytes") / 1024,
        total(cl, b, "notices"), total(cl, b, "invalidations"),
        ((cl, b, 0, "homes_moved") in S) ? total(cl, b, "homes_moved") : "–",
        total(cl, b, "locks_remote"), total(cl, b, "atomics_remote"),
        total(cl, b, "calls"), perrank(cl, b, "call_ms", 1, "%.0f"),
        perrank(cl, b, "release_ms", 1, "%.0f"), perrank(cl, b, "acquire_ms", 1, "%.0f") " (" perrank(cl, b, "prefetch_ms", 1, "%.0f") ")",
        perrank(cl, b, "serve_ms", 1, "%.0f"),
        good(ks) ? L[ks SUBSEP "w"] : "–",
        perrank(cl, b, "cpu_ms", 1, "%.0f"), perrank(cl, b, "service_cpu_ms", 1, "%.0f")
    }

    printf "\n### What costs each benchmark most at %s (read from the statistics)\n\n", cfgname(statcfg)
    printf "The largest of: one rank'\''s remote calls, releases or acquires; the barriers'\'' "
    printf "own cost (the least any rank spent in barriers beyond its releases and acquires); "
    printf "imbalance (what the other ranks waited beyond that for the last one). "
    printf "The counters cover the whole launch (NPB'\''s untimed set-up included), so the cost is "
    printf "given as a share of the launch'\''s wall-clock time. "
    printf "\"lost\" is the NPB time of the statistics run minus half (at 2 nodes) "
    printf "the median at 1×1: what the added nodes did not give back.\n\n"
    print "| benchmark | cause | cost | lost |"
    print "| --- | --- | --- | --- |"
    split(statcfg, sc, "x"); nodes = sc[1] + 0
    for (i = 1; i <= nb[cl]; i++) {
      b = border[cl, i]
      if (!((cl, b) in NR_) || NR_[cl, b] == 0) continue
      ks = cl SUBSEP b SUBSEP "stats"
      nr = NR_[cl, b]
      # The barriers own cost and the imbalance.
      minw = -1
      for (r = 0; r < nr; r++) {
        w[r] = sv(cl, b, r, "barrier_ms") - sv(cl, b, r, "release_ms") - sv(cl, b, r, "acquire_ms")
        if (w[r] < 0) w[r] = 0
        if (minw < 0 || w[r] < minw) { minw = w[r]; late = r }
      }
      best = -1; why = ""
      for (r = 0; r < nr; r++) {
        x = sv(cl, b, r, "call_ms")
        if (x > best) { best = x; why = sprintf("rank %d waits on remote calls: %d calls, %.0f us each; its %d read and %d write faults fetched %d pages (%.1f MiB); %d remote locks, %d remote atomics", r, sv(cl, b, r, "calls"), sv(cl, b, r, "calls") ? 1000 * x / sv(cl, b, r, "calls") : 0, sv(cl, b, r, "read_faults"), sv(cl, b, r, "write_faults"), sv(cl, b, r, "pages"), sv(cl, b, r, "page_bytes") / 1048576, sv(cl, b, r, "locks_remote"), sv(cl, b, r, "atomics_remote")); kd = kinds(cl, b, r); if (kd != "") why = why "; longest by kind: " kd }
        x = sv(cl, b, r, "release_ms")
        if (x > best) { best = x; why = sprintf("rank %d releases: %d diffs (%.1f KiB) and %d write notices", r, sv(cl, b, r, "diffs"), sv(cl, b, r, "diff_bytes") / 1024, sv(cl, b, r, "notices")) }
        x = sv(cl, b, r, "acquire_ms")
        if (x > best) { best = x; why = sprintf("rank %d acquires: %d invalidations, %d pages prefetched (%.0f ms), %d updated in place", r, sv(cl, b, r, "invalidations"), sv(cl, b, r, "prefetched"), sv(cl, b, r, "prefetch_ms"), sv(cl, b, r, "updated")) }
        if (r != late && w[r] - minw > best) { best = w[r] - minw; why = sprintf("imbalance: rank %d waits in barriers for rank %d, which spent %.0f ms in %d remote calls (%d read, %d write faults, %d remote atomics), %.0f ms releasing, %.0f ms acquiring", r, late, sv(cl, b, late, "call_ms"), sv(cl, b, late, "calls"), sv(cl, b, late, "read_faults"), sv(cl, b, late, "write_faults"), sv(cl, b, late, "atomics_remote"), sv(cl, b, late, "release_ms"), sv(cl, b, late, "acquire_ms")); kd = kinds(cl, b, late); if (kd != "") why = why "; its calls longest by kind: " kd }
      }
      nbar = sv(cl, b, late, "barriers")
      if (minw > best) { best = minw; why = sprintf("barriers themselves: %d barriers and %d regions, %.0f us each on the rank that waited least", nbar, sv(cl, b, late, "regions"), nbar ? minw * 1000 / nbar : 0) }
      ts = good(ks) ? median(L[ks SUBSEP "t"]) : -1
      k1 = cl SUBSEP b SUBSEP "1x1"
      lost = "–"
      if (ts >= 0 && good(k1)) lost = sprintf("%.2f s", ts - median(L[k1 SUBSEP "t"]) / (nodes ? nodes : 1))
      cost = sprintf("%.0f ms", best)
      ws = good(ks) ? median(L[ks SUBSEP "w"]) : 0
      if (ws > 0) cost = cost sprintf(" (%.0f%% of the launch'\''s %.2f s)", 100 * best / (ws * 1000), ws)
      if (ws > 0 && best < 0.05 * ws * 1000) why = "none above 5% of the launch (the largest: " why ")"
      if (!good(ks)) why = why " — the statistics run: " WHY[ks]
      printf "| %s | %s | %s | %s |\n", toupper(b), why, cost, lost
    }
  }
}
' "$tab" "$stab"

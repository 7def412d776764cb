#!/bin/sh
# run.sh -- `make bench-memmodel`: what the memory model across nodes
# costs a pipeline that synchronises with flags and flushes (wavefront.c,
# NPB LU's hand-off), at several nodes x threads, side by side in one
# run, and writes one Markdown report.
#
#   run.sh BUILDDIR OUTDIR RESULT.md
#
# wavefront.c is built once with BUILDDIR/bin/ompcc -O2 and launched with
# bin/ompcrun -n N -t T in rounds (each round runs every configuration
# once, so that a change of the machine's load touches them alike).  A
# launch counts only if it exits 0 (every value right).  Environment:
#   MM_CONFIGS  configurations (default "1x1 1x2 2x1 2x2 3x1")
#   MM_RUNS     rounds (default 7): the median and the spread (max - min)
#   MM_SWEEPS   timed sweeps per launch (default 3)
#   MM_TIMEOUT  seconds before a launch is killed (default 120)

set -u
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
here=$(cd "$(dirname "$0")" && pwd)
configs=${MM_CONFIGS:-1x1 1x2 2x1 2x2 3x1}
runs=${MM_RUNS:-7}
sweeps=${MM_SWEEPS:-3}
tmo=${MM_TIMEOUT:-120}
say() { echo "bench-memmodel: $*" >&2; }

mkdir -p "$out" || exit 2
"$build/bin/ompcc" -O2 -o "$out/wavefront" "$here/wavefront.c" \
  || { say "cannot build wavefront.c"; exit 2; }
load=$(cut -d' ' -f1-3 /proc/loadavg)
: > "$out/times"
r=1
while [ "$r" -le "$runs" ]; do
  for c in $configs; do
    n=${c%x*}
    t=${c#*x}
    line=$(timeout "$tmo" "$build/bin/ompcrun" -n "$n" -t "$t" \
	     "$out/wavefront" "$sweeps" 2>&1)
    st=$?
    s=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) s per sweep (0 wrong).*/\1/p')
    if [ "$st" -eq 0 ] && [ -n "$s" ]; then
      echo "$c $s" >> "$out/times"
    else
      echo "$c FAIL" >> "$out/times"
      say "$c round $r failed (status $st): $(echo "$line" | tail -1)"
    fi
  done
  say "round $r of $runs done"
  r=$((r + 1))
done

commit=$(cd "$here" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# The memory model's cost: an LU-style wavefront pipeline"
  echo
  echo "Written by \`make bench-memmodel\` on $(date -u '+%Y-%m-%d %H:%M') UTC, git commit $commit."
  echo "Load average just before the run: $load. All \"nodes\" are MPI ranks on"
  echo "this one machine ($(nproc) processors), so 2x2 and 3x1 oversubscribe it."
  echo
  echo "\`bench/memmodel/wavefront.c\`: 24 planes x 96 rows x 384 columns of"
  echo "doubles; each thread owns a band of rows; the producer of a row sets"
  echo "a flag and flushes, the consumer spins on \`flush(flag)\` and reads the"
  echo "row with no flush between (NPB LU's hand-off). Seconds per sweep,"
  echo "$sweeps timed sweeps per launch after one untimed, $runs launches per"
  echo "configuration in interleaved rounds; a launch with a wrong value"
  echo "counts as failed. Issue 12's bar: 2x1 within 30x the one-node time."
  echo
  echo "| configuration | launches ok | median s | spread s | / 1x1 | / 1x2 |"
  echo "| --- | --- | --- | --- | --- | --- |"
  awk -v cfgs="$configs" '
    { if ($2 == "FAIL") fail[$1]++; else { n[$1]++; v[$1, n[$1]] = $2 } }
    function med(c,   i, j, t, a) {
      for (i = 1; i <= n[c]; i++) a[i] = v[c, i]
      for (i = 1; i <= n[c]; i++) for (j = i + 1; j <= n[c]; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      lo[c] = a[1]; hi[c] = a[n[c]]
      return n[c] % 2 ? a[(n[c] + 1) / 2] : (a[n[c] / 2] + a[n[c] / 2 + 1]) / 2
    }
    END {
      k = split(cfgs, cs, " ")
      for (i = 1; i <= k; i++) if (n[cs[i]]) m[cs[i]] = med(cs[i])
      for (i = 1; i <= k; i++) {
        c = cs[i]; tot = n[c] + fail[c]
        if (!n[c]) { printf "| %s | 0 of %d | - | - | - | - |\n", c, tot; continue }
        r1 = m["1x1"] ? sprintf("%.1f", m[c] / m["1x1"]) : "-"
        r2 = m["1x2"] ? sprintf("%.1f", m[c] / m["1x2"]) : "-"
        printf "| %s | %d of %d | %.4f | %.4f | %s | %s |\n", c, n[c], tot, m[c], hi[c] - lo[c], r1, r2
      }
    }' "$out/times"
} > "$result"
say "wrote $result"

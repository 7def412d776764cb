# stats.awk -- reads the OMPC_STATS=1 lines of one run (stderr of every
# rank) and prints "RANK KEY VALUE" for the figures the bench-npb report
# uses.  Times are in milliseconds, sizes in bytes.
#
# The cluster module's line: "ompcluster stats: rank R: regions N,
# barriers N (T ms in them, ...), locks L local / R remote, ...; calls N
# (T ms waiting); ..."; the DSM's: "ompcluster: rank R: dsm: faults N
# read, N write, N home write; pages fetched N (B bytes), ...; diffs sent
# N (B bytes); write notices N sent, N invalidations; ...; time in release
# T ms, acquire T ms (prefetch T ms), serving page requests T ms".

function num(s) { gsub(/[^0-9.]/, "", s); return s + 0 }
function put(k, v) { print rank, k, v }

/^ompcluster stats: rank [0-9]+:/ {
  rank = num($4)
  for (i = 5; i <= NF; i++) {
    if ($i == "regions") put("regions", num($(i + 1)))
    else if ($i == "barriers" && $(i + 2) ~ /^\(/) {
      put("barriers", num($(i + 1)))
      put("barrier_ms", num($(i + 2)))
    }
    else if ($i == "locks") {
      put("locks_local", num($(i + 1)))
      put("locks_remote", num($(i + 4)))
    }
    else if ($i == "pulls") put("pulls", num($(i + 1)))
    else if ($i == "calls" && $(i + 2) ~ /^\(/) {
      put("calls", num($(i + 1)))
      put("call_ms", num($(i + 2)))
    }
    else if ($i == "sent" && $(i - 1) == "messages") {
      put("msgs_sent", num($(i + 1)))
      put("bytes_sent", num($(i + 2)))
    }
    else if ($i == "took") put("service_cpu_ms", num($(i + 1)))
    else if ($i == "process's") put("cpu_ms", num($(i + 1)))
  }
}

# The calls by kind: "ompcluster stats: rank R: calls by kind: page-fetch
# N (T ms), diff N (T ms), ..." gives "kind:NAME N" and "kind_ms:NAME T".
/^ompcluster stats: rank [0-9]+: calls by kind:/ {
  rank = num($4)
  rest = $0
  sub(/.*calls by kind: */, "", rest)
  nk = split(rest, kinds, /, */)
  for (j = 1; j <= nk; j++) {
    if (split(kinds[j], f, " ") < 3) continue
    put("kind:" f[1], num(f[2]))
    put("kind_ms:" f[1], num(f[3]))
  }
}

/^ompcluster: rank [0-9]+: dsm:/ {
  rank = num($3)
  for (i = 5; i <= NF; i++) {
    if ($i == "faults") {
      put("read_faults", num($(i + 1)))
      put("write_faults", num($(i + 3)))
      put("home_faults", num($(i + 5)))
    }
    else if ($i == "fetched" && $(i - 1) == "pages") {
      put("pages", num($(i + 1)))
      put("page_bytes", num($(i + 2)))
    }
    else if ($i == "prefetched") put("prefetched", num($(i - 3)))
    else if ($i == "updated" && $(i + 1) == "in") put("updated", num($(i - 1)))
    else if ($i == "diffs" && $(i + 1) == "sent") {
      put("diffs", num($(i + 2)))
      put("diff_bytes", num($(i + 3)))
    }
    else if ($i == "notices") put("notices", num($(i + 1)))
    else if ($i == "moved" && $(i - 1) == "homes") put("homes_moved", num($(i + 1)))
    else if ($i == "atomics" && $(i - 1) == "remote") put("atomics_remote", num($(i + 1)))
    else if ($i == "invalidations;") put("invalidations", num($(i - 1)))
    else if ($i == "release" && $(i - 2) == "time") put("release_ms", num($(i + 1)))
    else if ($i == "acquire") put("acquire_ms", num($(i + 1)))
    else if ($i == "(prefetch") put("prefetch_ms", num($(i + 1)))
    else if ($i == "serving") put("serve_ms", num($(i + 3)))
  }
}

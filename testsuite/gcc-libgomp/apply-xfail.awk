# apply-xfail.awk LIST RAW-SUM -- copies a DejaGnu .sum, turning every FAIL
# or UNRESOLVED result of a test named in LIST into XFAIL (with the reason
# appended), recounting the "# of ..." totals, and adding a NOTE line for
# each listed test that ran without failing (it should leave the list).
#
# LIST: one test per line, "PATH REASON...", PATH as the .sum names it
# (e.g. libgomp.c/loop-2.c); the reason is required; '#' starts a comment.

FILENAME == ARGV[1] {
  sub(/#.*/, "")
  if (NF == 0)
    next
  if (NF < 2) {
    printf "apply-xfail.awk: %s:%d: %s has no reason\n", FILENAME, FNR, $1 > "/dev/stderr"
    bad = 1
    next
  }
  path = $1
  $1 = ""
  sub(/^ +/, "")
  reason[path] = $0
  next
}

/^# of / { next }
/^\t\t=== .* Summary ===/ { summary = 1 }

/^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED|UNSUPPORTED|UNTESTED|KFAIL|KPASS):/ {
  kind = $1
  sub(/:$/, "", kind)
  test = $2
  if (test in reason) {
    seen[test] = 1
    if (kind == "FAIL" || kind == "UNRESOLVED") {
      failed[test] = 1
      line = $0
      sub(/^[A-Z]+:/, "XFAIL:", line)
      print line " [expected: " reason[test] "]"
      count["XFAIL"]++
      next
    }
  }
  count[kind]++
}

!summary { print }

END {
  if (bad)
    exit 1
  for (t in seen)
    if (!(t in failed))
      printf "NOTE: %s is listed in expected-failures but did not fail\n", t
  printf "\n\t\t=== libgomp Summary ===\n\n"
  n = split("PASS FAIL XPASS XFAIL UNRESOLVED UNSUPPORTED UNTESTED", order, " ")
  label["PASS"] = "expected passes"
  label["FAIL"] = "unexpected failures"
  label["XPASS"] = "unexpected successes"
  label["XFAIL"] = "expected failures"
  label["UNRESOLVED"] = "unresolved testcases"
  label["UNSUPPORTED"] = "unsupported tests"
  label["UNTESTED"] = "untested testcases"
  for (i = 1; i <= n; i++)
    if (count[order[i]])
      printf "# of %s\t\t%d\n", label[order[i]], count[order[i]]
}

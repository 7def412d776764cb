#!/bin/sh
# atomics-check.sh MODE EXE [FUNCTIONS] -- what became of the program's
# atomics, read from its disassembly (the functions whose names match the
# extended regular expression FUNCTIONS; default: main, the renamed main,
# test_* and main's outlined OpenMP bodies).
#
#   nolock        no lock-prefixed instruction is left (built with
#                 -fplugin-arg-ompcluster-no-inline-atomics)
#   guarded       every function holding a lock-prefixed instruction also
#                 reads ompc_cluster_slot and calls (or jumps to) the
#                 runtime's ompc_atomic_* / ompc_sync_* (the default
#                 inline-atomics: the native instruction for one node
#                 behind a test, the call for several)
#   guarded-need  the same, and at least one lock-prefixed instruction
#                 exists (the program has atomics)
mode=${1:?usage: atomics-check.sh MODE EXE [FUNCTIONS]}
exe=${2:?usage: atomics-check.sh MODE EXE [FUNCTIONS]}
funcs=${3:-'main|__ompc_user_main|test_[a-z0-9_]*|main\._omp_fn\.[0-9]+'}

OMPC_FUNCS="^[0-9a-f]+ <($funcs)>:" OMPC_MODE=$mode
export OMPC_FUNCS OMPC_MODE
objdump -d --no-show-raw-insn "$exe" |
  awk '
    BEGIN { re = ENVIRON["OMPC_FUNCS"]; mode = ENVIRON["OMPC_MODE"] }
    function done_fn() { if (name != "" && lock && !(call && slot)) bad = bad " " name }
    /^[0-9a-f]+ </ { done_fn(); name = ""; lock = 0; call = 0; slot = 0
		     if ($0 ~ re) name = $2; next }
    /^$/ { done_fn(); name = ""; next }
    name == "" { next }
    /\<lock\>/ { lock = 1; locks++; if (mode == "nolock") print name ": " $0 }
    /(call|jmp).*<ompc_(atomic|sync)_/ { call = 1 }
    /<ompc_cluster_slot/ { slot = 1 }
    END {
      done_fn()
      if (mode == "nolock") exit (locks > 0)
      if (bad != "") { print "lock-prefixed instructions without the cluster path in" bad; exit 1 }
      if (mode == "guarded-need" && !locks) { print "no inline atomic at all"; exit 1 }
    }'

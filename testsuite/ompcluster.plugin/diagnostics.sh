# diagnostics.sh -- the plugin's options, its report and its warnings: the
# verbose report per translation unit, the help text, an unknown option as
# an error, the warnings with file and line for what stays unsafe across
# nodes, and the refusal of a GCC other than 12.
. "$SRC/aux/lib.sh"

W="$AUX/warn.c"
line_of () { grep -n "WARN-HERE $1" "$W" | cut -d: -f1; }

"$OMPCC" -c -foffload=disable "$W" -o warn.o 2> warn.err
check "warning: user section, with file and line" \
  "grep -E 'warn\.c:$(line_of section):[0-9]+: warning: ompcluster: .kept. stays in section .user_data.' warn.err"
check "warning: inline assembly in OpenMP code, with file and line" \
  "grep -E 'warn\.c:$(line_of asm):[0-9]+: warning: ompcluster: inline assembly' warn.err"
check "warning: target region, with file and line" \
  "grep -E 'warn\.c:$(line_of target):[0-9]+: warning: ompcluster: .target. constructs are not distributed' warn.err"
# -mcmodel=medium: a large variable stays in GCC's .lbss (GCC addresses it
# as large data only there), which the fragment gathers into the shared
# region, without a warning; a small one moves to the plugin's section.
printf 'double big[100000000];\nint small;\nint main (void) {\n#pragma omp parallel\n  big[99999999] = small = 1;\n  return big[99999999] != 1;\n}\n' > medium.c
check "-mcmodel=medium: large variable in the shared region, no warning" \
  "\"$OMPCC\" -mcmodel=medium -O2 -fplugin-arg-ompcluster-verbose medium.c -o medium.exe 2> medium.err && ./medium.exe && ! grep -F warning medium.err && grep -F 'ompcluster: big (800000000 bytes) -> .lbss' medium.err && test \"\$(objdump -t medium.exe | awk '\$NF == \"big\" {print \$4}')\" = .ompc_shared_lbss && test \"\$(objdump -t medium.exe | awk '\$NF == \"small\" {print \$4}')\" = .ompc_shared_bss"
check "no warning for asm outside OpenMP code or an empty asm" \
  "test \$(grep -c 'warning: ompcluster: inline assembly' warn.err) = 1"
check "no-warnings leaves them out" \
  "\"$OMPCC\" -c -fplugin-arg-ompcluster-no-warnings -foffload=disable \"$W\" -o warn.o 2> nowarn.err && ! grep -F ompcluster nowarn.err"
check "-w silences the warnings" \
  "\"$OMPCC\" -c -w -foffload=disable \"$W\" -o warn.o 2> quiet.err && ! test -s quiet.err"

"$OMPCC" -c -fplugin-arg-ompcluster-verbose "$AUX/sections.c" -o v.o 2> verbose.err
check "verbose: each variable with its bytes and section" \
  "grep -F 'ompcluster: huge (209715200 bytes) -> .bss.__ompc_shared' verbose.err && grep -F 'ompcluster: init_var (8 bytes) -> .data.__ompc_shared' verbose.err && grep -F 'ompcluster: .gomp_critical_user_sec_name (8 bytes, weak) -> .bss.__ompc_shared' verbose.err"
check "verbose: the unit's summary" \
  "grep -E 'sections\.c: ompcluster: 6 variables moved to the shared segment \(16 bytes initialised, 209715272 bytes zero, 1 made weak, 1 aligned to 4096 bytes\), 1 kept out \\(user section\\); main renamed to __ompc_user_main; [0-9]+ heap calls and 0 heap function addresses rewritten; [0-9]+ atomics \\(0 of them in loops GCC parallelized\\) and 0 flushes rewritten' verbose.err"
"$OMPCC" -c -fplugin-arg-ompcluster-verbose "$SRC/heap.c" -o h.o 2> heap.err
check "verbose: heap calls and addresses counted" \
  "grep -E 'heap\.c: ompcluster: .*main renamed.* 29 heap calls and 7 heap function addresses rewritten' heap.err"
"$OMPCC" -c -O2 -ftree-parallelize-loops=2 -ffast-math -fchecking=2 \
  -fplugin-arg-ompcluster-verbose "$SRC/autopar.c" -o ap.o 2> autopar.err
check "verbose: the merges of loops GCC parallelized counted (full checking)" \
  "grep -E 'autopar\.c: ompcluster: .* 9 atomics \\(9 of them in loops GCC parallelized\\)' autopar.err"
"$OMPCC" -c -fplugin-arg-ompcluster-verbose "$AUX/tu-b.c" -o b.o 2> tub.err
check "verbose: a unit without main says so" \
  "grep -F 'main not defined here' tub.err"

check "help lists the options" \
  "\"$OMPCC\" -c -fplugin-arg-ompcluster-help \"$AUX/tu-b.c\" -o b.o 2>&1 | grep -E '^  verbose ' && \"$OMPCC\" -c -fplugin-arg-ompcluster-help \"$AUX/tu-b.c\" -o b.o 2>&1 | grep -E '^  help ' && \"$OMPCC\" -c -fplugin-arg-ompcluster-help \"$AUX/tu-b.c\" -o b.o 2>&1 | grep -E '^  no-warnings\$'"
check "unknown option is an error" \
  "! \"$OMPCC\" -c -fplugin-arg-ompcluster-bogus=1 \"$AUX/tu-b.c\" -o b.o 2> bogus.err && grep -F \"error: ompcluster: unknown option '-fplugin-arg-ompcluster-bogus=1'\" bogus.err"

# A GCC other than 12: the compatibility header stops the build.
mkdir -p fake
printf '#include_next "bversion.h"\n#undef BUILDING_GCC_MAJOR\n#define BUILDING_GCC_MAJOR 13\n' > fake/bversion.h
check "another GCC refused at build time" \
  "! g++ -fsyntax-only -I fake -I \"\$(gcc -print-file-name=plugin)/include\" \"$SRC/../../gcc-plugin/gcc-common.h\" 2> version.err && grep -F 'supports GCC 12 only' version.err"

# A whole program compiled without OpenMP (-fno-openmp, as GCC's own tests
# do) links no runtime: the plugin leaves it alone and says so; a unit
# without main is still rewritten.
printf '#include <stdlib.h>\nint g;\nint main (void) { char *p = malloc (8); free (p); return g; }\n' > nomp.c
check "-fno-openmp program left alone" \
  "\"$OMPCC\" -fno-openmp -fplugin-arg-ompcluster-verbose nomp.c -o nomp.exe 2> nomp.err && ./nomp.exe && grep -F 'OpenMP is off and the unit defines main: nothing rewritten' nomp.err && ! nm nomp.exe | grep -q ' U ompc_'"
check "-fno-openmp unit without main still rewritten" \
  "\"$OMPCC\" -fno-openmp -c \"$AUX/tu-b.c\" -o nomp-b.o && test \"\$(section_of nomp-b.o common_var)\" = .bss.__ompc_shared"

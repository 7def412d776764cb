# wrappers.sh -- the driver each wrapper runs, whatever its arguments:
# sources by name and by -x, objects and archives by their symbols (what
# `--showme` prints), -c/-E/-M, commands without input files, and real
# links of objects of mixed languages that run.
. "$SRC/aux/setup.sh"

M="$SRC/mixed"
N="$SRC/npb"
FC=$(sed -n 's/^gcc_fc="\(.*\)"$/\1/p' "$OMPC_BUILD/bin/ompcc")

# driver WRAPPER ARGS...: the program --showme says the wrapper would run.
driver () {
  _w=$1
  shift
  "$_w" --showme "$@" | awk '{ print $1 }' | sed 's|.*/||'
}
# is WRAPPER EXPECTED ARGS...: the driver is EXPECTED.
is () {
  _w=$1 _e=$2
  shift 2
  _d=$(driver "$_w" "$@")
  [ "$_d" = "$_e" ] || { echo "$_w $*: $_d, not $_e"; return 1; }
}

check "sources: ompcc picks gcc, gfortran or g++ by name" \
  "is ompcc gcc x.c && is ompcc gfortran x.f90 && is ompcc gfortran x.F && is ompcc g++ x.cc && is ompcc g++ x.cpp && is ompcc gfortran x.c y.f90"
check "sources: -x c++ and -x f95 count" \
  "is ompcc g++ -x c++ x.h && is ompcc gfortran -x f95 x.inc && is ompcc gcc -x c x.c"
check "ompcxx is g++, ompf90 and ompfort gfortran, whatever the sources" \
  "is ompcxx g++ x.c && is ompcxx g++ x.f90 && is ompf90 gfortran x.c && is ompfort gfortran x.cc && is ompf90 gfortran"

# Objects of each language, compiled by the wrappers.
check "compile each language with -c" \
  "ompcc -O2 -c \"$M/main.c\" && ompf90 -O2 -c \"$M/fill.f90\" && ompcxx -O2 -c \"$M/sum.cc\" &&
   ompf90 -O2 -c \"$N/kernel_data.f90\" \"$N/print_results.f90\" && ompf90 -O2 -c \"$N/kernel.f90\" &&
   ar rcs libnpb.a kernel_data.o print_results.o && ar rcs libsum.a sum.o"
check "objects: ompcc links Fortran objects with gfortran" \
  "is ompcc gfortran kernel.o kernel_data.o print_results.o -o k"
check "objects: ompcc links C++ objects with g++" "is ompcc g++ main.o sum.o -o m"
check "objects: ompcc links C objects with gcc" "is ompcc gcc main.o -o m"
check "archives: a Fortran archive makes ompcc use gfortran" \
  "is ompcc gfortran main.o libnpb.a -o m"
check "Fortran and C++ objects: gfortran with -lstdc++" \
  "is ompcc gfortran main.o fill.o kernel_data.o libsum.a -o m && ompcc --showme main.o kernel_data.o sum.o | grep -q -- ' -lompcluster-cxx -lstdc++\$'"
check "ompcxx adds -lgfortran -lm for Fortran objects, ompf90 -lstdc++ for C++ ones" \
  "ompcxx --showme main.o fill.o sum.o | grep -q -- ' -lgfortran -lm\$' && ompf90 --showme main.o fill.o sum.o | grep -q -- ' -lstdc++\$' &&
   ! ompcxx --showme main.o sum.o | grep -q -- -lgfortran"
check "ompcc's link of Fortran objects runs (pow, libgfortran)" \
  "ompcc -O2 -o k.x kernel.o kernel_data.o print_results.o && run2 ./k.x 'Verification += +SUCCESSFUL'"
check "ompcxx's link of C, Fortran and C++ objects runs" \
  "ompcxx -o m1.x main.o fill.o sum.o -lm && run2 ./m1.x 'mixed: threads 2 sum .* ok'"
check "ompcc's link of C, Fortran and C++ objects runs" \
  "ompcc -o m2.x main.o fill.o libsum.a -lm && ./m2.x | grep -q 'mixed: threads .* ok'"
check "OMPC_CC still forces ompcc's driver" \
  "[ \"\$(OMPC_CC=cc driver ompcc kernel.o)\" = cc ]"

check "-c, -S, -E, -M, -fsyntax-only link nothing" \
  "for o in -c -S -E -M -MM -fsyntax-only; do ompcc --showme \$o x.c | grep -q -- -lompcluster-cxx && exit 1; done; true"
check "-E preprocesses with our omp.h" \
  "ompcc -E \"$M/main.c\" | grep -q 'omp_get_num_threads' && ompcc -E \"$M/main.c\" | grep -q -F '$OMPC_BUILD/include/omp.h'"
check "-M lists a C unit's headers" \
  "ompcc -M \"$M/main.c\" | grep -q -F '$OMPC_BUILD/include/omp.h'"
check "-M and -MMD on Fortran (gfortran wants -cpp: the wrapper adds it)" \
  "ompf90 -M \"$N/kernel.f90\" | grep -q 'kernel_data.mod' && ompcc -M \"$N/kernel.f90\" | grep -q 'kernel_data.mod' &&
   ompf90 -c -MMD \"$N/kernel_data.f90\" -o kd.o && grep -q kernel_data.f90 kd.d"
check "no inputs: -v, --version, -dumpversion work and link nothing" \
  "ompcc -v && ompf90 --version && ompcxx -dumpversion && ompcc --showme -v | grep -v -q -- -lompcluster"
check "--showme runs nothing; -show and --showme:compile/--showme:link too" \
  "ompcc --showme x.c -o nothere && ompcc x.c -o nothere --showme && [ ! -e nothere ] && ompcc -show x.c | grep -q -- '-fplugin=$OMPC_BUILD/lib/ompcluster.so' &&
   [ \"\$(ompf90 --showme:compile)\" = '-fopenmp -fplugin=$OMPC_BUILD/lib/ompcluster.so -I$OMPC_BUILD/include' ] &&
   ompcxx --showme:link | grep -q -- '-Wl,-T,$OMPC_BUILD/lib/ompcluster.ld'"
check "--showme quotes what the shell would need" \
  "ompcc --showme -DMSG='\"a b\"' x.c | grep -q -F \"'-DMSG=\\\"a b\\\"'\""

# autotools.sh -- autoconf's configure with the wrappers as its compilers:
#   SRC/configure CC=ompcc CXX=ompcxx FC=ompf90
# (the compiler checks and AC_OPENMP pass), then make builds the mixed
# C/Fortran/C++ program (linked by ompf90, which adds libstdc++ for the
# C++ object), which runs at 2x1.  autoconf runs on a copy of mixed/.
. "$SRC/aux/setup.sh"

cp -r "$SRC/mixed" src
mkdir -p build
check "autoconf makes configure" "cd src && autoconf"
check "configure with ompcc, ompcxx and ompf90" \
  "cd build && ../src/configure CC=ompcc CXX=ompcxx FC=ompf90 > configure.log 2>&1 || { cat config.log; exit 1; }
   grep -q 'supports GNU Fortran... yes' configure.log &&
   grep -q 'checking for ompf90 option to support OpenMP... none needed' configure.log"
check "make builds the mixed program" "cd build && make"
check "the mixed program runs at 2x1" "run2 build/mixed 'mixed: threads 2 sum .* ok'"

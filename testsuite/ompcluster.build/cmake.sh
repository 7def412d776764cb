# cmake.sh -- CMake with the wrappers as its compilers:
#   CC=ompcc CXX=ompcxx FC=ompf90 cmake mixed/
# (its compiler checks and find_package(OpenMP) pass), then make builds
# the mixed C/Fortran/C++ program, which runs at 2x1.
. "$SRC/aux/setup.sh"

mkdir -p build
check "cmake configures with ompcc, ompcxx and ompf90" \
  "cd build && CC=ompcc CXX=ompcxx FC=ompf90 cmake \"$SRC/mixed\" > cmake.log 2>&1 || { cat cmake.log; exit 1; }
   grep -q 'CMAKE_Fortran_COMPILER:.*=.*ompf90' CMakeCache.txt"
check "make builds the mixed program" "cd build && make VERBOSE=1"
check "the mixed program runs at 2x1" "run2 build/mixed 'mixed: threads 2 sum .* ok'"

# driver.sh -- how a program gets the plugin, the runtime and the linker
# fragment: bin/ompcc, and a plain `gcc -fopenmp -fplugin=ompcluster` that
# finds the plugin by name and reads lib/libgomp.spec (-iplugindir and -B
# point at the build tree here; an installed ompcluster needs neither).
# Without -fplugin=ompcluster the same spec links exactly as GCC's own.
. "$SRC/aux/lib.sh"

LIB="$OMPC_BUILD/lib"
P="$SRC/omp-atomic.c"

uses_our_runtime () {
  readelf -d "$1" | grep -F "Library rpath: [$LIB]" &&
    readelf -S -W "$1" | grep -F .ompc_shared &&
    nm "$1" | grep -q ' __ompc_shared_start$' &&
    OMP_NUM_THREADS=2 LD_DEBUG=libs ./"$1" 2>&1 | grep -F "calling init: $LIB/libgomp.so.1"
}

check "ompcc: plugin, runtime and fragment" \
  "\"$OMPCC\" \"$P\" -o ompcc.exe && uses_our_runtime ompcc.exe"
check "gcc -fopenmp -fplugin=ompcluster: plugin, runtime and fragment" \
  "gcc -fopenmp -iplugindir=\"$LIB\" -fplugin=ompcluster -B\"$LIB/\" \"$P\" -o spec.exe && uses_our_runtime spec.exe && nm spec.exe | grep -q ' U ompc_atomic_fetch_add_4'"
check "gfortran -fopenmp -fplugin=ompcluster too" \
  "gfortran -fopenmp -iplugindir=\"$LIB\" -fplugin=ompcluster -B\"$LIB/\" \"$SRC/fortran.f90\" -o fspec.exe && uses_our_runtime fspec.exe"
check "without the plugin the spec links GCC's libgomp as usual" \
  "gcc -fopenmp -B\"$LIB/\" \"$P\" -o plain.exe && ! readelf -d plain.exe | grep -F \"$LIB\" && ! readelf -S -W plain.exe | grep -F .ompc_shared && OMP_NUM_THREADS=2 ./plain.exe"
check "separate compile and link with gcc -fplugin=ompcluster" \
  "gcc -fcommon -fopenmp -iplugindir=\"$LIB\" -fplugin=ompcluster -c \"$AUX/tu-a.c\" -o a.o && gcc -fcommon -fopenmp -iplugindir=\"$LIB\" -fplugin=ompcluster -c \"$AUX/tu-b.c\" -o b.o && gcc -fopenmp -fplugin=ompcluster -iplugindir=\"$LIB\" -B\"$LIB/\" a.o b.o -o ab.exe && uses_our_runtime ab.exe"

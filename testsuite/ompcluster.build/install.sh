# install.sh -- the installed route, in a scratch directory, touching
# nothing of the system: `make install prefix=P` into a GCC of its own,
# then plain gcc/g++/gfortran -fopenmp -fplugin=ompcluster (C, C++,
# Fortran) at 1 node and under mpiexec -n 2; the same GCC without the
# plugin links byte-for-byte as before (GCC's libgomp); the installed
# wrappers, pkg-config ompcluster and the -B overlay of the module file;
# `make uninstall` leaves GCC's files and the prefix as they were;
# INSTALL_GCC=no leaves GCC's files alone; a DESTDIR staging unpacked where
# its prefix says works as well.
#
# The GCC of its own is this machine's GCC relocated: its drivers copied
# to G/bin and its library directory mirrored by symbolic links under
# G/lib/gcc/TRIPLE/VERSION (a GCC driver finds cc1, the specs and the
# plugin directory relative to itself, and C++'s headers in G/include),
# with libgomp.spec and the plugin directory real, as `make install` finds
# them in an installed GCC.
. "$SRC/aux/setup.sh"
PATH=${PATH#"$OMPC_BUILD/bin:"}
I="$SRC/installed"
export OMP_NUM_THREADS=1

# The relocated GCC.
drv=$(readlink -f "$(command -v gcc)")
usr=$(dirname "$(dirname "$drv")")
gcclib=$(gcc -print-search-dirs | sed -n 's|^install: \(.*\)/$|\1|p')
G="$TMP/gcc"
GL="$G/${gcclib#"$usr"/}"
mkdir -p "$G/bin" "$GL/plugin"
ln -s "$usr/include" "$G/include"
for d in gcc g++ gfortran; do cp "$(readlink -f "$(command -v $d)")" "$G/bin/$d"; done
for f in "$gcclib"/*; do
  case ${f##*/} in
    libgomp.spec) cp -p "$f" "$GL/" ;;
    plugin) for p in "$f"/*; do ln -s "$p" "$GL/plugin/"; done ;;
    *) ln -s "$f" "$GL/" ;;
  esac
done
P="$TMP/prefix"
INST="prefix=$P GCC_PLUGIN_DIR=$GL/plugin"
# make in the build tree, free of the settings of a `make check` around us.
mk () {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$OMPC_BUILD" "$@"
}

# snapshot DIR: every file and link of DIR with its content.
snapshot () {
  (cd "$1" && find . -printf '%p %y %l\n' | sort &&
     find . -type f -exec sha256sum {} + | sort)
}
# plain TAG: builds the three programs with G's drivers, no plugin.
plain () {
  "$G/bin/gcc" -fopenmp "$I/prog.c" -o c.$1 &&
    "$G/bin/g++" -fopenmp "$I/prog.cc" -o cxx.$1 &&
    "$G/bin/gfortran" -fopenmp "$I/prog.f90" -o f.$1
}
# gcc_libgomp EXE: EXE needs libgomp.so.1, has no run path, and ld.so gives
# it the system's libgomp (GOMP_* versions and all), not ompcluster's.
gcc_libgomp () {
  readelf -d "$1" | grep -q 'NEEDED.*libgomp.so.1' &&
    ! readelf -d "$1" | grep -q -E 'RPATH|RUNPATH' &&
    ldd "$1" | grep 'libgomp.so.1' | grep -v -q ompcluster &&
    ! nm "$1" | grep -q __ompc_shared_start
}
# runs EXE LABEL: 1 node, then mpiexec -n 2: "LABEL: threads 2 ok".
runs () {
  ./"$1" | grep -q "^$2: threads 1 ok" &&
    timeout -k 5 120 mpiexec -n 2 ./"$1" > "$1.out" 2>&1 &&
    grep -q "^$2: threads 2 ok" "$1.out" || { cat "$1.out"; return 1; }
}
ours () {
  readelf -d "$1" | grep -q -F "Library rpath: [$P/lib/ompcluster]" &&
    nm "$1" | grep -q ' __ompc_shared_start$'
}

check "the relocated GCC links GCC's libgomp" \
  "plain before && gcc_libgomp c.before && gcc_libgomp cxx.before && gcc_libgomp f.before && ./c.before | grep -q ok"
snapshot "$G" > gcc.before

check "make install prefix=P into the GCC" \
  "mk install $INST &&
   [ -f \"$GL/plugin/ompcluster.so\" ] && grep -q ompcluster \"$GL/libgomp.spec\" &&
   cmp \"$GL/libgomp.spec.orig-ompcluster\" \"$gcclib/libgomp.spec\" &&
   [ -x \"$P/bin/ompcc\" ] && [ -x \"$P/bin/ompf90\" ] && [ -x \"$P/bin/ompcxx\" ] && [ -x \"$P/bin/ompfort\" ] &&
   [ -f \"$P/lib/ompcluster/libgomp.so.1\" ] && [ ! -e \"$P/lib/libgomp.so.1\" ]"
check "gcc -fopenmp -fplugin=ompcluster: C at 1 node and mpiexec -n 2" \
  "\"$G/bin/gcc\" -O2 -fopenmp -fplugin=ompcluster \"$I/prog.c\" -o c.exe && ours c.exe && runs c.exe c"
check "g++ -fopenmp -fplugin=ompcluster: C++ at 1 node and mpiexec -n 2" \
  "\"$G/bin/g++\" -O2 -fopenmp -fplugin=ompcluster \"$I/prog.cc\" -o cxx.exe && ours cxx.exe && runs cxx.exe c++"
check "gfortran -fopenmp -fplugin=ompcluster: Fortran at 1 node and mpiexec -n 2" \
  "\"$G/bin/gfortran\" -O2 -fopenmp -fplugin=ompcluster \"$I/prog.f90\" -o f.exe && ours f.exe && runs f.exe fortran"
check "separate compile and link with -fplugin=ompcluster" \
  "\"$G/bin/gcc\" -fopenmp -fplugin=ompcluster -c \"$I/prog.c\" -o sep.o && \"$G/bin/gcc\" -fopenmp -fplugin=ompcluster sep.o -o sep.exe && ours sep.exe && runs sep.exe c"
check "without the plugin the installed GCC links exactly as before" \
  "plain after && cmp c.before c.after && cmp cxx.before cxx.after && cmp f.before f.after && gcc_libgomp c.after"
check "the installed wrappers" \
  "\"$P/bin/ompcc\" \"$I/prog.c\" -o w.exe && ours w.exe && runs w.exe c && \"$P/bin/ompf90\" \"$I/prog.f90\" -o wf.exe && runs wf.exe fortran"
check "pkg-config ompcluster with a GCC that has nothing installed" \
  "PKG_CONFIG_PATH=\"$P/lib/pkgconfig\" pkg-config --cflags --libs ompcluster > pc.flags &&
   g++ \$(PKG_CONFIG_PATH=\"$P/lib/pkgconfig\" pkg-config --cflags ompcluster) \"$I/prog.cc\" -o pc.exe \$(PKG_CONFIG_PATH=\"$P/lib/pkgconfig\" pkg-config --libs ompcluster) &&
   ours pc.exe && runs pc.exe c++"
check "the module file's flags: gcc -B overlay -fplugin=ompcluster" \
  "tclsh \"$SRC/aux/module.tcl\" \"$P/share/modulefiles/ompcluster\" > module.out &&
   f=\$(sed -n 's/^setenv OMPCLUSTER_GCC_FLAGS //p' module.out) && [ -n \"\$f\" ] &&
   grep -q '^prepend-path PATH $P/bin\$' module.out && grep -q '^prepend-path PKG_CONFIG_PATH $P/lib/pkgconfig\$' module.out &&
   gfortran \$f \"$I/prog.f90\" -o mod.exe && ours mod.exe && runs mod.exe fortran &&
   gcc -fopenmp -B\"$P/lib/ompcluster/gcc/\" \"$I/prog.c\" -o modplain.exe && gcc_libgomp modplain.exe"
check "make uninstall puts GCC's files back and empties the prefix" \
  "mk uninstall $INST && snapshot \"$G\" > gcc.after && diff gcc.before gcc.after &&
   [ -z \"\$(find \"$P\" -type f -o -type l)\" ] && plain again && cmp c.before c.again && cmp f.before f.again"

# INSTALL_GCC=no: nothing of G touched; the overlay works.
R="$TMP/site"
check "make install INSTALL_GCC=no touches nothing of GCC's" \
  "mk install INSTALL_GCC=no prefix=\"$R\" GCC_PLUGIN_DIR=\"$GL/plugin\" &&
   snapshot \"$G\" > gcc.site && diff gcc.before gcc.site &&
   \"$G/bin/gcc\" -fopenmp -B\"$R/lib/ompcluster/gcc/\" -fplugin=ompcluster \"$I/prog.c\" -o site.exe &&
   readelf -d site.exe | grep -q -F \"[$R/lib/ompcluster]\" && ./site.exe | grep -q 'c: threads 1 ok' &&
   mk uninstall INSTALL_GCC=no prefix=\"$R\" GCC_PLUGIN_DIR=\"$GL/plugin\" &&
   [ -z \"\$(find \"$R\" -type f -o -type l)\" ]"

# DESTDIR: staged, nothing of G touched, no file names the stage, and the
# prefix part unpacked where it belongs works.
D="$TMP/stage"
Q="$TMP/q"
check "make install DESTDIR=D stages everything and touches nothing" \
  "mk install DESTDIR=\"$D\" prefix=\"$Q\" GCC_PLUGIN_DIR=\"$GL/plugin\" &&
   [ -f \"$D$GL/plugin/ompcluster.so\" ] && grep -q ompcluster \"$D$GL/libgomp.spec\" &&
   snapshot \"$G\" > gcc.staged && diff gcc.before gcc.staged && ! grep -r -q -F \"$D\" \"$D\""
check "the staged prefix unpacked works" \
  "cp -a \"$D$Q\" \"$Q\" && \"$Q/bin/ompcxx\" \"$I/prog.cc\" -o q.exe && readelf -d q.exe | grep -q -F \"[$Q/lib/ompcluster]\" && runs q.exe c++"
check "make uninstall DESTDIR=D empties the stage" \
  "mk uninstall DESTDIR=\"$D\" prefix=\"$Q\" GCC_PLUGIN_DIR=\"$GL/plugin\" &&
   [ -z \"\$(find \"$D\" -type f -o -type l)\" ]"

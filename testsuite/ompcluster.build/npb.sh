# npb.sh -- an NPB-style Fortran build (npb/Makefile): every unit compiled
# with $(FC), the objects linked with $(FC) alone (NPB 3.4's OpenMP
# Makefiles do this), with FC = ompf90 and with FC = ompcc, which must see
# from the objects that they are Fortran (libgfortran, libm's pow).
. "$SRC/aux/setup.sh"

for fc in ompf90 ompcc; do
  mkdir -p $fc
  check "FC = $fc: compile and link" \
    "cd $fc && make -s -f \"$SRC/npb/Makefile\" SRC=\"$SRC/npb\" FC=$fc"
  check "FC = $fc: runs and verifies at 2x1" \
    "run2 $fc/kernel.x 'Threads += +2' && run2 $fc/kernel.x 'Verification += +SUCCESSFUL'"
done

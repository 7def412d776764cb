# multi-tu.sh -- several translation units and static libraries built with
# the plugin: a named critical, a -fcommon variable and a global shared
# between units link to one copy and work.
. "$SRC/aux/lib.sh"

check "two units share a named critical" \
  "\"$OMPCC\" -fcommon \"$AUX/tu-a.c\" \"$AUX/tu-b.c\" -o two.exe && test \$(nm two.exe | grep -c ' \.gomp_critical_user_shared_name\$') = 1 && OMP_NUM_THREADS=2 ./two.exe"
check "units in the other order" \
  "\"$OMPCC\" -fcommon \"$AUX/tu-b.c\" \"$AUX/tu-a.c\" -o two-r.exe && OMP_NUM_THREADS=3 ./two-r.exe"
check "separate compilation" \
  "\"$OMPCC\" -fcommon -O2 -c \"$AUX/tu-a.c\" -o a.o && \"$OMPCC\" -fcommon -O2 -c \"$AUX/tu-b.c\" -o b.o && \"$OMPCC\" a.o b.o -o sep.exe && OMP_NUM_THREADS=2 ./sep.exe"
check "static library" \
  "\"$OMPCC\" -fcommon -c \"$AUX/tu-b.c\" -o lib-b.o && ar rcs libb.a lib-b.o && \"$OMPCC\" -fcommon \"$AUX/tu-a.c\" -L. -lb -o lib.exe && OMP_NUM_THREADS=2 ./lib.exe"
check "common variable in the shared segment" \
  "in_region two.exe common_var && in_region two.exe total"

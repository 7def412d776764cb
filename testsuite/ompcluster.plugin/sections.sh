# sections.sh -- what the plugin moves into the shared sections and what it
# leaves alone, in the object file and in the linked program (readelf, nm,
# objdump): section types, flags and alignment, the region's bounds, a
# 200 MB zero array leaving a small file, TLS and const data untouched,
# main renamed, the named critical's lock weak.
. "$SRC/aux/lib.sh"

"$OMPCC" -c "$AUX/sections.c" -o s.o 2>/dev/null || { echo "not ok compile"; exit 1; }
"$OMPCC" "$AUX/sections.c" -o s.exe 2>/dev/null || { echo "not ok link"; exit 1; }

check "object: .data.__ompc_shared is PROGBITS, writable" \
  "readelf -S -W s.o | grep -E ' \.data\.__ompc_shared +PROGBITS .* WA '"
check "object: .bss.__ompc_shared is NOBITS, writable" \
  "readelf -S -W s.o | grep -E ' \.bss\.__ompc_shared +NOBITS .* WA '"
for v in zero_var huge .gomp_critical_user_sec_name; do
  check "object: $v in .bss.__ompc_shared" \
    "test \"\$(section_of s.o $v)\" = .bss.__ompc_shared"
done
for v in init_var static_var local_var.0; do
  check "object: $v in .data.__ompc_shared" \
    "test \"\$(section_of s.o $v)\" = .data.__ompc_shared"
done
check "object: TLS untouched" \
  "test \"\$(section_of s.o tls_var)\" = .tdata && test \"\$(section_of s.o tls_zero)\" = .tbss && test \"\$(section_of s.o tp_var)\" = .tbss"
check "object: const data untouched" \
  "test \"\$(section_of s.o const_var)\" = .rodata && case \$(section_of s.o str_ptr) in *ompc*) exit 1;; esac"
check "object: user section untouched" \
  "test \"\$(section_of s.o user_sec)\" = mysec"
check "object: string literals untouched" \
  "! readelf -p .data.__ompc_shared s.o 2>/dev/null | grep -q abc"
check "object: main renamed" \
  "nm s.o | grep -q ' T __ompc_user_main\$' && ! nm s.o | grep -q ' T main\$'"
check "object: critical(NAME) lock is weak, not common" \
  "nm s.o | grep -E ' [VW] \.gomp_critical_user_sec_name\$'"
check "object: section alignment at least the variables'" \
  "readelf -S -W s.o | awk '/ \.bss\.__ompc_shared / { exit !(\$NF >= 32) }'"
check "object: a variable of 16 KiB or more (huge) aligned to 4096 bytes" \
  "readelf -S -W s.o | awk '/ \.bss\.__ompc_shared / { exit !(\$NF >= 4096) }' && test \$(( 0x\$(nm s.o | awk '\$3 == \"huge\" { print \$1 }') % 4096 )) = 0"

check "program: region sections" \
  "readelf -S -W s.exe | grep -E ' \.ompc_shared_data +PROGBITS .* WA ' && readelf -S -W s.exe | grep -E ' \.ompc_shared_bss +NOBITS .* WA '"
check "program: region bounds page aligned" \
  "nm s.exe | awk '/ __ompc_shared_(start|end)\$/ { n++; if (strtonum(\"0x\" \$1) % 4096) bad = 1 } END { exit bad || n != 2 }'"
for v in huge zero_var init_var static_var local_var.0 .gomp_critical_user_sec_name; do
  check "program: $v inside the region" "in_region s.exe $v"
done
for v in tls_var const_var str_ptr user_sec; do
  check "program: $v outside the region" "! in_region s.exe $v"
done
check "program: the region ends after huge" \
  "nm s.exe | awk '\$3 == \"__ompc_shared_end\" { e = strtonum(\"0x\" \$1) } \$3 == \"huge\" { h = strtonum(\"0x\" \$1) } END { exit !(h + 209715200 <= e) }'"
check "program: 200 MB zero array leaves a small file" \
  "test \$(stat -c %s s.exe) -lt 200000"
check "program: runs" "./s.exe"

# report.sh -- the sharing report of hot.c (see report.exp).
set -u
LC_ALL=C
export LC_ALL
: "${OMPC_BUILD:?}" "${SRC:?}" "${TMP:?}"
cd "$TMP" || exit 1
. "$SRC/../lib/check.sh"
B=$OMPC_BUILD/bin
line=$(grep -n 'HOT-MALLOC-LINE' "$SRC/hot.c" | cut -d: -f1)
gline=$(grep -n '^double hot_global' "$SRC/hot.c" | cut -d: -f1)

"$B/ompcc" -O2 -g "$SRC/hot.c" -o hot 2>&1

# 2 nodes x 1 thread, through the variable.
OMPC_REPORT=$TMP/r21.html timeout -k 5 120 "$B/ompcrun" -n 2 -t 1 ./hot \
  >out21 2>err21
s=$?
check "2x1 runs with OMPC_REPORT (status $s)" "[ $s = 0 ] && grep -qx ok out21"
check "2x1 writes the report" "[ -s r21.html ]"
check "2x1 names the hot global by its symbol and declaration" \
  "grep -q '>hot_global (hot.c:$gline)<' r21.html"
check "2x1 names the malloc'd buffer by its call site hot.c:$line" \
  "grep -q '>hot.c:$line (in main)<' r21.html"
check "2x1 names the counters sharing a block, and false sharing" \
  "grep -q 'hot_counts' r21.html && grep -q 'False sharing' r21.html"
check "2x1 has a heat map per node and a bar chart per object" \
  "grep -q 'id=\"heat-node-0\"' r21.html && grep -q 'id=\"heat-node-1\"' r21.html && grep -q 'id=\"obj-chart-1\"' r21.html && grep -q 'id=\"moved-chart\"' r21.html"
check "2x1 refers to nothing outside the file" \
  "! grep -Eq '(src|href)=\"(https?:|//|file:)' r21.html"
check "2x1 summary on stderr" \
  "grep -q 'ompcluster: sharing report written to $TMP/r21.html' err21 && grep -q 'top objects by bytes moved' err21 && grep -Eq '^  [0-9]+\. (hot_global \\(hot.c:$gline\\)|hot.c:$line)' err21"
if command -v xmllint >/dev/null 2>&1; then
  check "2x1 report is well-formed XML (xmllint)" "xmllint --noout r21.html"
else
  check "2x1 report is well-formed XML (python3)" \
    "python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' r21.html"
fi

# 2 nodes x 2 threads, through ompcrun --report with a relative name.
timeout -k 5 120 "$B/ompcrun" -n 2 -t 2 --report r22.html ./hot >out22 2>err22
s=$?
check "2x2 runs with ompcrun --report (status $s)" \
  "[ $s = 0 ] && grep -qx ok out22"
check "2x2 report names the global and the call site" \
  "grep -q '>hot_global (hot.c:$gline)<' r22.html && grep -q '>hot.c:$line (in main)<' r22.html"
check "2x2 summary on stderr" "grep -q 'top objects by bytes moved' err22"

# Off: no file, no summary.
timeout -k 5 120 "$B/ompcrun" -n 2 -t 1 ./hot >out0 2>err0
s=$?
check "off: runs, no summary (status $s)" \
  "[ $s = 0 ] && ! grep -q 'sharing report' err0"
check "ompcrun --report at 1 node says it writes nothing" \
  "\"$B/ompcrun\" -n 1 --report r1.html ./hot 2>&1 | grep -q 'no sharing report' && [ ! -e r1.html ]"

# Rendered by a browser, when there is one: the DOM it builds holds the
# pictures, and the screenshot is not blank.
chrome=
for c in chromium chromium-browser google-chrome; do
  command -v $c >/dev/null 2>&1 && { chrome=$c; break; }
done
if [ -n "$chrome" ]; then
  check "$chrome renders the report (DOM with the pictures)" \
    "timeout 120 $chrome --headless --no-sandbox --disable-gpu --dump-dom file://$TMP/r21.html 2>/dev/null >dom.html; grep -q 'heat-node-1' dom.html && grep -q '<rect' dom.html && grep -q 'hot_global' dom.html"
  check "$chrome screenshot of the report is not blank" \
    "timeout 120 $chrome --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,2400 --screenshot=$TMP/shot.png file://$TMP/r21.html >/dev/null 2>&1; python3 '$SRC/png-colours.py' shot.png"
else
  skip "headless Chromium rendering (no chromium installed)"
fi

# png-colours.py PNG -- exits 0 when the screenshot PNG holds a rendered
# report: many colours, and both the heat map's reds and the node
# colours' blue of the charts.  Decodes 8-bit RGB/RGBA PNGs with zlib
# alone (no imaging library needed).
import struct
import sys
import zlib

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
if depth != 8 or ctype not in (2, 6):
    sys.exit('unexpected PNG format %d/%d' % (depth, ctype))
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours = set()
red = blue = 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pr) & 255
    for x in range(0, stride, bpp * 4):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        colours.add((r, g, bl))
        if r > 200 and g < 150 and bl < 120:
            red += 1
        if bl > 150 and r < 80:
            blue += 1
    prev = line
print('%dx%d, %d colours, %d red, %d blue samples' % (w, h, len(colours),
                                                    red, blue))
sys.exit(0 if len(colours) > 8 and red > 0 and blue > 0 else 1)

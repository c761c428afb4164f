#!/usr/bin/env python3
# City world for scripts/bench-tiles: W x W metres (world x, z; Y up), 4 m floor quads, one
# obstacle per 5 m cell (pillars, 6 m walls), 3 m tall with walkable tops. About 8 footprint walls
# per cell (the floor's hole and the top's outline).
import random, sys
W = float(sys.argv[1]); out = sys.argv[2]
rnd = random.Random(1)
lines = []
nv = 0
def box(x0, z0, x1, z1, h=3.0):
    global nv
    b = nv + 1
    for (x, z) in ((x0, z0), (x1, z0), (x1, z1), (x0, z1)):
        lines.append("v %g 0 %g\nv %g %g %g\n" % (x, z, x, h, z))
    nv += 8
    for k in range(4):
        a = b + 2 * k; c = b + 2 * ((k + 1) % 4)
        lines.append("f %d %d %d\nf %d %d %d\n" % (a, c + 1, c, a, a + 1, c + 1))
    lines.append("f %d %d %d\nf %d %d %d\n" % (b + 1, b + 7, b + 5, b + 1, b + 5, b + 3))
g = 4.0; n = int(round(W / g))
for i in range(n + 1):
    for k in range(n + 1):
        lines.append("v %g 0 %g\n" % (i * g, k * g))
nv += (n + 1) * (n + 1)
for i in range(n):
    for k in range(n):
        a = 1 + i * (n + 1) + k; b = a + n + 1
        lines.append("f %d %d %d\nf %d %d %d\n" % (a, a + 1, b + 1, a, b + 1, b))
pitch = 5.0; cells = 0
z = pitch / 2
while z < W - pitch / 2 + 1e-9:
    x = pitch / 2
    while x < W - pitch / 2 + 1e-9:
        r = rnd.random(); jx = round((rnd.random() - 0.5) * 4) / 4; jz = round((rnd.random() - 0.5) * 4) / 4
        if r < 0.2 and 4 < x < W - 4: box(x - 3 + jx, z + jz, x + 3 + jx, z + 0.5 + jz)
        elif r < 0.4 and 4 < z < W - 4: box(x + jx, z - 3 + jz, x + 0.5 + jx, z + 3 + jz)
        else:
            s = 0.5 + round(rnd.random() * 4) / 4
            box(x - s / 2 + jx, z - s / 2 + jz, x + s / 2 + jx, z + s / 2 + jz)
        cells += 1
        x += pitch
    z += pitch
with open(out, "w") as f:
    f.write("# clearway bench-tiles city: %g m, %d obstacles\n" % (W, cells))
    f.writelines(lines)
print(cells)

"""A new island for Hy Breasil (``realms map generate hy-breasil``), valid by the map loader.

The rulebook is written for any map.  Method: a fine Lloyd-relaxed Voronoi mesh (cells
exactly clipped to the 1000x800 frame by mirroring the sites across the frame edges) is
split into an island (noisy ellipse) and the surrounding ocean.  Up to two groups of
interior cells become inland seas (:attr:`Shape.lakes`); the rest of the island is
partitioned into land areas by k-means seeds and noisy multi-source Dijkstra (so areas
are connected); the ocean is cut into compass sectors, one per sea.  Area outlines are
unions of cells; borders are split into chains between junctions, smoothed (Chaikin) and
simplified (Douglas-Peucker) chain by chain, so neighbouring areas share exactly the same
border points, and adjacency is derived from the shared edges.  Hills lie along two
ranges (one on a small island), forests in three blocks.  A seed whose island fails a
quality check is followed by the next seed, so one seed always gives one map.  The
bundled map is this module's island of seed 23 with 48 areas and 8 seas
(``tools/make_hy_breasil_map.py`` writes it; a test checks the two agree).

The Voronoi cells come from matplotlib's Delaunay triangulation (a dependency already),
each cell the circumcentres of its site's triangles.
"""

from __future__ import annotations

import heapq
import math
import unicodedata
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from realms.core.game import Argument, CalculatorError, MapGenerator

W, H = 1000.0, 800.0
CX, CY = 515.0, 405.0
RX, RY = 350.0, 278.0
#: the bundled map's shape: 48 land areas, 8 seas; other sizes scale from it
BASE_AREAS, BASE_SPACING, BASE_HILLS, BASE_FOREST = 48, 23.5, 12, 14
MIN_AREAS, MAX_AREAS = 16, 120
MIN_SEAS, MAX_SEAS = 4, 12

HILLS_NAMES = [
    "Sliabh Dubh", "Sliabh Bladma", "Sliabh Mis", "Sliabh na mBan", "Sliabh Fuait",
    "Sliabh Luachra", "Cnoc Áine", "Cnoc Meadha", "Cnoc Fírinne", "Cnoc na Súl",
    "Benn Gulbain", "Benn Étair", "Ard Macha", "Cruachan Aigle", "Sliabh Echtge",
]
FOREST_NAMES = [
    "Fid Gaible", "Caill Dorcha", "Fid Mór", "Caill Tomair", "Fid Dorcha",
    "Ros Ailither", "Ros na Rí", "Gleann Bolcáin", "Coill Cuilinn", "Fid Eóin",
    "Caill Fhionn", "Doire Leith", "Doire Calgaich", "Fid Nemed", "Caill Ochtair",
    "Ros Dá Shailech",
]
PLAINS_NAMES = [
    "Mag Mell", "Mag Slécht", "Mag Tuired", "Mag Itha", "Mag Luirg", "Mag Breg",
    "Mag nAí", "Mag Adair", "Mag Femen", "Achadh Glas", "Achadh Abhla", "Tír Tairngire",
    "Tír na nÓg", "Tír Sorcha", "Tír na mBeo", "Tír fo Thuinn", "Emain Ablach", "Murias",
    "Falias", "Gorias", "Findias", "Dún Scáith", "Dún Fionn", "Dún Delgan", "Ailech",
    "Dún Sobairce", "Brú na Bóinne", "Crích Cualann", "Temair", "Dún Ailinne",
    "Eas Ruaidh",
]
#: when a terrain's names run out (a big island): prefix + epithet
PREFIXES = {"hills": ("Sliabh", "Cnoc", "Benn", "Ard"), "forest": ("Fid", "Caill", "Ros", "Doire"),
            "plains": ("Mag", "Achadh", "Tír", "Dún", "Cluain")}
EPITHETS = ("Bán", "Dubh", "Rua", "Glas", "Mór", "Beag", "Fionn", "Liath", "Óir", "Corr", "Buí",
            "Crom", "Fada", "Airgid", "na Rón", "na gCloch", "an Iolair", "na Féile")
# compass sector centre (degrees, screen coordinates: 0 = east, 90 = south) -> name
SEA_SECTORS = [
    (0.0, "Muir Tethra"),
    (38.66, "Tonn Tuaithe"),
    (90.0, "Tonn Rudraige"),
    (141.34, "Muir Lir"),
    (180.0, "Muir Manannáin"),
    (218.66, "Tonn Clíodhna"),
    (270.0, "Muir Fomóire"),
    (321.34, "Sruth na Maoile"),
]
MORE_SEAS = ("Muir nIcht", "Muir Meann", "Tonn Tóime", "Muir Orc", "Muir Bretan", "Sruth Fháil")
#: inland seas: name, radius (px on the bundled map's mesh), fewest areas it borders
LAKES = [("Loch Echach", 52.0, 6), ("Loch Riach", 34.0, 4)]
#: a lake's cells lie this many cells from the coast on the bundled map's mesh
LAKE_DEPTH = 5
#: the hill ranges' lengths (px): the areas nearest them are hills
HILL_RANGES = (330.0, 220.0)


@dataclass(frozen=True)
class Shape:
    """How big an island: its land areas and seas, and what follows from them."""

    areas: int = BASE_AREAS
    seas: int = len(SEA_SECTORS)

    @property
    def spacing(self) -> float:
        """Mesh cell size: as many cells per area as the bundled map has."""
        return BASE_SPACING * math.sqrt(BASE_AREAS / self.areas)

    @property
    def hills(self) -> int:
        return round(BASE_HILLS * self.areas / BASE_AREAS)

    @property
    def forest(self) -> int:
        return round(BASE_FOREST * self.areas / BASE_AREAS)

    @property
    def sectors(self) -> list[tuple[float, str]]:
        if self.seas == len(SEA_SECTORS):
            return SEA_SECTORS
        names = [n for _, n in SEA_SECTORS] + list(MORE_SEAS)
        return [(k * 360.0 / self.seas, names[k]) for k in range(self.seas)]

    @property
    def coarse(self) -> float:
        """How much bigger a cell is than on the bundled map's mesh (1 from its size up)."""
        return max(1.0, self.spacing / BASE_SPACING)

    @property
    def lakes(self) -> list[tuple[str, float, int]]:
        """The inland seas: both from 24 areas up, one from 20, none below.  The rulebook
        names inland seas (§5.1, §5.2: no nation enters there) but needs none; a small
        island has no room round them for the coastal and interior areas it needs.  On a
        coarser mesh (a smaller island) a lake is a little bigger in pixels and borders
        fewer areas, in proportion to the island's breadth in areas."""
        kept = LAKES[:2 if self.areas >= 24 else 1 if self.areas >= 20 else 0]
        scale = math.sqrt(min(1.0, self.areas / BASE_AREAS))
        return [(name, radius * math.sqrt(self.coarse), min(borders, max(3, round(borders * scale))))
                for name, radius, borders in kept]

    @property
    def ranges(self) -> tuple[float, ...]:
        """The hill ranges' lengths (px): two, or one where there are too few hill areas
        for each of two ranges to have neighbouring hills."""
        return HILL_RANGES if self.hills >= 8 else HILL_RANGES[:1]

    @property
    def lake_depth(self) -> int:
        """A lake's cells lie this many cells from the coast: as far in pixels as on the
        bundled map's mesh, where the mesh is coarser."""
        return max(3, round(LAKE_DEPTH / self.coarse))

    @property
    def sea_coast(self) -> int:
        """The fewest land areas a sea touches: three, or two where the coast is too short
        for three each (under four land areas or two coastal ones a sea)."""
        return 3 if self.areas >= 4 * self.seas and self.min_coastal >= 2 * self.seas else 2

    @property
    def min_coastal(self) -> int:
        return round(18 * math.sqrt(self.areas / BASE_AREAS))

    @property
    def min_interior(self) -> int:
        return max(2, round(4 * self.areas / BASE_AREAS))


class MapGenerationError(CalculatorError):
    """No acceptable island from the arguments given; the message says which and why."""


class Retry(Exception):
    pass


def slug(name: str) -> str:
    s = unicodedata.normalize("NFKD", name)
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    out = "".join(c if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


# ----------------------------------------------------------------- Voronoi mesh


def _circumcentres(allp: np.ndarray) -> dict[int, list[tuple[float, float]]]:
    """Each site's Voronoi vertices: the circumcentres of its Delaunay triangles."""
    from matplotlib.tri import Triangulation

    T = Triangulation(allp[:, 0], allp[:, 1]).triangles
    A, B, C = allp[T[:, 0]], allp[T[:, 1]], allp[T[:, 2]]
    a2, b2, c2 = (A ** 2).sum(1), (B ** 2).sum(1), (C ** 2).sum(1)
    d = 2 * (A[:, 0] * (B[:, 1] - C[:, 1]) + B[:, 0] * (C[:, 1] - A[:, 1]) + C[:, 0] * (A[:, 1] - B[:, 1]))
    ux = (a2 * (B[:, 1] - C[:, 1]) + b2 * (C[:, 1] - A[:, 1]) + c2 * (A[:, 1] - B[:, 1])) / d
    uy = (a2 * (C[:, 0] - B[:, 0]) + b2 * (A[:, 0] - C[:, 0]) + c2 * (B[:, 0] - A[:, 0])) / d
    out: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for t, corners in enumerate(T.tolist()):
        for v in corners:
            out[v].append((float(ux[t]), float(uy[t])))
    return out


def clipped_voronoi(pts: np.ndarray):
    """Voronoi cells of pts clipped exactly to the frame (mirror trick).

    Returns (vertex coordinates, list of cells as CCW vertex-id lists)."""
    n = len(pts)
    mirrors = [pts,
               np.c_[-pts[:, 0], pts[:, 1]], np.c_[2 * W - pts[:, 0], pts[:, 1]],
               np.c_[pts[:, 0], -pts[:, 1]], np.c_[pts[:, 0], 2 * H - pts[:, 1]]]
    allp = np.vstack(mirrors)
    centres = _circumcentres(allp)
    key_to_id: dict[tuple[float, float], int] = {}
    coords: list[tuple[float, float]] = []
    cells = []
    for i in range(n):
        ids = set()
        for x, y in centres[i]:
            x = min(max(x, 0.0), W)
            y = min(max(y, 0.0), H)
            key = (round(x, 5), round(y, 5))
            if key not in key_to_id:
                key_to_id[key] = len(coords)
                coords.append(key)
            ids.add(key_to_id[key])
        if len(ids) < 3:
            raise Retry("degenerate cell")
        cx = sum(coords[v][0] for v in ids) / len(ids)
        cy = sum(coords[v][1] for v in ids) / len(ids)
        cells.append(sorted(ids, key=lambda v: math.atan2(coords[v][1] - cy, coords[v][0] - cx)))
    return np.array(coords), cells


def poly_area_centroid(P: np.ndarray):
    x, y = P[:, 0], P[:, 1]
    x1, y1 = np.roll(x, -1), np.roll(y, -1)
    cross = x * y1 - x1 * y
    a = cross.sum() / 2
    if abs(a) < 1e-9:
        return 0.0, P.mean(axis=0)
    return a, np.array([((x + x1) * cross).sum() / (6 * a), ((y + y1) * cross).sum() / (6 * a)])


def build_mesh(rng, spacing: float = BASE_SPACING):
    xs = np.arange(spacing / 2, W, spacing)
    ys = np.arange(spacing / 2, H, spacing * 0.866)
    grid = []
    for r, y in enumerate(ys):
        for x in xs:
            grid.append((x + (spacing / 2 if r % 2 else 0), y))
    pts = np.array(grid, dtype=float)
    pts += rng.uniform(-0.42, 0.42, pts.shape) * spacing
    pts[:, 0] = pts[:, 0].clip(1, W - 1)
    pts[:, 1] = pts[:, 1].clip(1, H - 1)
    for _ in range(2):  # Lloyd relaxation
        V, cells = clipped_voronoi(pts)
        pts = np.array([poly_area_centroid(V[c])[1] for c in cells])
    V, cells = clipped_voronoi(pts)
    edge_cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    for ci, c in enumerate(cells):
        for k in range(len(c)):
            a, b = c[k], c[(k + 1) % len(c)]
            edge_cells[(min(a, b), max(a, b))].append(ci)
    nbrs: list[set[int]] = [set() for _ in cells]
    for cs in edge_cells.values():
        if len(cs) == 2:
            nbrs[cs[0]].add(cs[1])
            nbrs[cs[1]].add(cs[0])
        elif len(cs) > 2:
            raise Retry("edge shared by >2 cells")
    return pts, V, cells, nbrs


def components(members: set[int], nbrs) -> list[set[int]]:
    left = set(members)
    comps = []
    while left:
        s = left.pop()
        comp = {s}
        q = deque([s])
        while q:
            c = q.popleft()
            for d in nbrs[c]:
                if d in left:
                    left.remove(d)
                    comp.add(d)
                    q.append(d)
        comps.append(comp)
    comps.sort(key=len, reverse=True)
    return comps


# ----------------------------------------------------------------- island, lakes, regions


def make_island(rng, pts, nbrs):
    harm = [(k, rng.uniform(0.03, 0.09) / (k ** 0.3), rng.uniform(0, 2 * math.pi)) for k in range(2, 9)]
    bays = [(rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.18), rng.uniform(0.18, 0.3)) for _ in range(3)]
    capes = [(rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.16), rng.uniform(0.12, 0.2)) for _ in range(2)]
    dx = (pts[:, 0] - CX) / RX
    dy = (pts[:, 1] - CY) / RY
    r = np.hypot(dx, dy)
    th = np.arctan2(dy, dx)
    R = np.ones_like(r)
    for k, a, ph in harm:
        R += a * np.sin(k * th + ph)
    for ang, width, depth in bays:
        d = np.angle(np.exp(1j * (th - ang)))
        R -= depth * np.exp(-(d / width) ** 2)
    for ang, width, height in capes:
        d = np.angle(np.exp(1j * (th - ang)))
        R += height * np.exp(-(d / width) ** 2)
    R = np.minimum(R, 1.22)
    island = set(np.nonzero(r < R)[0].tolist())
    comps = components(island, nbrs)
    island = comps[0]
    # fill enclosed sea pockets
    sea = set(range(len(pts))) - island
    for comp in components(sea, nbrs)[1:]:
        island |= comp
    return island


def coast_distance(island, nbrs):
    dist = {}
    q = deque()
    for c in island:
        if any(d not in island for d in nbrs[c]):
            dist[c] = 0
            q.append(c)
    while q:
        c = q.popleft()
        for d in nbrs[c]:
            if d in island and d not in dist:
                dist[d] = dist[c] + 1
                q.append(d)
    return dist


def make_lakes(rng, pts, island, nbrs, shape: Shape = Shape()):
    """The inland seas' cells: each a noisy disc deep inside the island, far from the
    other, its ring of neighbouring cells on land off the coast."""
    cdist = coast_distance(island, nbrs)
    lakes = []
    used: set[int] = set()
    centres: list[np.ndarray] = []
    for _name, radius, _borders in shape.lakes:
        for _attempt in range(200):
            cands = [c for c in island if cdist[c] >= shape.lake_depth and c not in used]
            if not cands:
                raise Retry("no lake site")
            c0 = cands[rng.integers(len(cands))]
            p0 = pts[c0]
            if any(np.hypot(*(p0 - q)) < 260 for q in centres):
                continue
            if np.hypot((p0[0] - CX) / RX, (p0[1] - CY) / RY) > 0.6:
                continue
            noise = rng.uniform(0.75, 1.25, len(pts))
            members = {c for c in island if np.hypot(*(pts[c] - p0)) * noise[c] < radius}
            members.add(c0)
            members = components(members, nbrs)[0]
            ring = {d for c in members for d in nbrs[c]} - members
            if any(cdist.get(d, 0) < 2 for d in ring) or ring & used or len(members) < 3:
                continue
            lakes.append(members)
            used |= members | ring
            centres.append(p0)
            break
        else:
            raise Retry("no lake site")
    return lakes


def kmeans_seeds(rng, pts, cells_list, k):
    P = pts[cells_list]
    centres = [P[rng.integers(len(P))]]
    d2 = ((P - centres[0]) ** 2).sum(1)
    for _ in range(1, k):
        i = rng.choice(len(P), p=d2 / d2.sum())
        centres.append(P[i])
        d2 = np.minimum(d2, ((P - P[i]) ** 2).sum(1))
    C = np.array(centres)
    for _ in range(25):
        lab = ((P[:, None, :] - C[None, :, :]) ** 2).sum(2).argmin(1)
        for j in range(k):
            m = lab == j
            if m.any():
                C[j] = P[m].mean(0)
            else:
                C[j] = P[rng.integers(len(P))]
    seeds = []
    for j in range(k):
        order = ((P - C[j]) ** 2).sum(1).argsort()
        for i in order:
            if cells_list[i] not in seeds:
                seeds.append(cells_list[i])
                break
    return seeds


def grow_regions(rng, pts, members, nbrs, seeds):
    owner = {}
    heap = [(0.0, i, s) for i, s in enumerate(seeds)]
    heapq.heapify(heap)
    best = {}
    while heap:
        d, reg, c = heapq.heappop(heap)
        if c in owner:
            continue
        owner[c] = reg
        for e in nbrs[c]:
            if e in members and e not in owner:
                nd = d + float(np.hypot(*(pts[c] - pts[e]))) * rng.uniform(0.7, 1.4)
                if nd < best.get(e, math.inf):
                    best[e] = nd
                    heapq.heappush(heap, (nd, reg, e))
    return owner


def sea_sectors(rng, pts, sea_cells, nbrs, sectors=SEA_SECTORS):
    centres = np.radians([a for a, _ in sectors])
    wobble = [(rng.uniform(0.1, 0.25), rng.uniform(0, 2 * math.pi)) for _ in sectors]
    owner = {}
    for c in sea_cells:
        x, y = pts[c]
        th = math.atan2((y - CY) / RY, (x - CX) / RX)
        r = math.hypot(x - CX, y - CY)
        best, bd = None, math.inf
        for j, a in enumerate(centres):
            amp, ph = wobble[j]
            d = abs(math.remainder(th - a - amp * math.sin(r / 70 + ph), 2 * math.pi))
            if d < bd:
                best, bd = j, d
        owner[c] = best
    # make every sector connected: hand stray pieces to the neighbour sharing most border
    for _ in range(10):
        changed = False
        for j in range(len(sectors)):
            mem = {c for c, o in owner.items() if o == j}
            for comp in components(mem, nbrs)[1:]:
                cnt = Counter(owner[d] for c in comp for d in nbrs[c]
                              if d in owner and owner[d] != j)
                if cnt:
                    new = cnt.most_common(1)[0][0]
                    for c in comp:
                        owner[c] = new
                    changed = True
        if not changed:
            break
    return owner


# ----------------------------------------------------------------- outlines


def region_loops(cells, cell_region, n_regions):
    """Boundary loop (vertex ids) of each region, via cancellation of shared cell edges."""
    directed = [set() for _ in range(n_regions)]
    for ci, c in enumerate(cells):
        r = cell_region[ci]
        for k in range(len(c)):
            a, b = c[k], c[(k + 1) % len(c)]
            if (b, a) in directed[r]:
                directed[r].remove((b, a))
            else:
                directed[r].add((a, b))
    loops = []
    for r in range(n_regions):
        nxt = {}
        for a, b in directed[r]:
            if a in nxt:
                raise Retry(f"region {r} pinches at a vertex")
            nxt[a] = b
        start = min(nxt)
        loop = [start]
        v = nxt[start]
        while v != start:
            loop.append(v)
            v = nxt[v]
        if len(loop) != len(nxt):
            raise Retry(f"region {r} has a hole or several parts")
        loops.append(loop)
    return loops


def chaikin(P: np.ndarray, iterations: int) -> np.ndarray:
    """Corner-cutting smoothing of an open chain; both end points stay fixed."""
    for _ in range(iterations):
        if len(P) < 3:
            return P
        a, b = P[:-1], P[1:]
        q = 0.75 * a + 0.25 * b
        r = 0.25 * a + 0.75 * b
        mid = np.empty((2 * len(a), 2))
        mid[0::2] = q
        mid[1::2] = r
        P = np.vstack([P[:1], mid[1:-1], P[-1:]])
    return P


def douglas_peucker(P: np.ndarray, tol: float) -> np.ndarray:
    if len(P) < 3:
        return P
    a, b = P[0], P[-1]
    ab = b - a
    L = np.hypot(*ab)
    if L < 1e-9:
        d = np.hypot(*(P - a).T)
    else:
        d = np.abs(ab[0] * (P[:, 1] - a[1]) - ab[1] * (P[:, 0] - a[0])) / L
    i = int(d[1:-1].argmax()) + 1
    if d[i] <= tol:
        return np.array([a, b])
    left = douglas_peucker(P[: i + 1], tol)
    right = douglas_peucker(P[i:], tol)
    return np.vstack([left[:-1], right])


def smooth_outlines(V, loops, vertex_regions):
    """Split loops into chains between junctions, smooth each chain once, rebuild polygons."""

    def is_junction(v):
        x, y = V[v]
        on_frame = x <= 1e-6 or y <= 1e-6 or x >= W - 1e-6 or y >= H - 1e-6
        return on_frame or len(vertex_regions[v]) >= 3

    chain_cache: dict[tuple[int, ...], np.ndarray] = {}
    polys = []
    for loop in loops:
        js = [k for k, v in enumerate(loop) if is_junction(v)]
        if not js:
            js = [loop.index(min(loop))]
        k0 = js[0]
        rot = loop[k0:] + loop[:k0]
        jset = {k - k0 for k in js}
        jset = {k % len(loop) for k in jset}
        pieces = []
        cur = [rot[0]]
        for k in range(1, len(rot) + 1):
            v = rot[k % len(rot)]
            cur.append(v)
            if k % len(rot) in jset:
                pieces.append(cur)
                cur = [v]
        out = []
        for ch in pieces:
            key = tuple(ch)
            rkey = key[::-1]
            if key in chain_cache:
                P = chain_cache[key]
            elif rkey in chain_cache:
                P = chain_cache[rkey][::-1]
            else:
                canon = min(key, rkey)
                Pc = V[list(canon)]
                x0, y0 = Pc[0]
                x1, y1 = Pc[-1]
                frame_seg = (len(Pc) == 2) or (
                    (abs(x0 - x1) < 1e-6 and x0 in (0.0, W)) or (abs(y0 - y1) < 1e-6 and y0 in (0.0, H)))
                if not frame_seg and len(Pc) >= 3:
                    Pc = douglas_peucker(chaikin(Pc, 3), 0.45)
                chain_cache[canon] = Pc
                P = Pc if canon == key else Pc[::-1]
            out.extend(P[:-1])
        polys.append(np.array(out))
    return polys, chain_cache


def segments_intersect_any(chains) -> bool:
    """True if two chain segments cross (other than at shared endpoints)."""
    segs = []
    for P in chains:
        for a, b in zip(P[:-1], P[1:]):
            segs.append((a[0], a[1], b[0], b[1]))
    S = np.array(segs)
    n = len(S)
    minx = np.minimum(S[:, 0], S[:, 2]); maxx = np.maximum(S[:, 0], S[:, 2])
    miny = np.minimum(S[:, 1], S[:, 3]); maxy = np.maximum(S[:, 1], S[:, 3])

    def orient(ax, ay, bx, by, cx, cy):
        return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)

    for i in range(n):
        j = np.arange(i + 1, n)
        m = (minx[j] <= maxx[i]) & (maxx[j] >= minx[i]) & (miny[j] <= maxy[i]) & (maxy[j] >= miny[i])
        j = j[m]
        if not len(j):
            continue
        ax, ay, bx, by = S[i]
        cx, cy, dx, dy = S[j].T
        shared = ((np.hypot(cx - ax, cy - ay) < 1e-7) | (np.hypot(cx - bx, cy - by) < 1e-7)
                  | (np.hypot(dx - ax, dy - ay) < 1e-7) | (np.hypot(dx - bx, dy - by) < 1e-7))
        o1 = orient(ax, ay, bx, by, cx, cy)
        o2 = orient(ax, ay, bx, by, dx, dy)
        o3 = orient(cx, cy, dx, dy, ax, ay)
        o4 = orient(cx, cy, dx, dy, bx, by)
        cross = (o1 * o2 < 0) & (o3 * o4 < 0) & ~shared
        if cross.any():
            return True
    return False


def point_seg_dist(p, P):
    a = P
    b = np.roll(P, -1, axis=0)
    ab = b - a
    t = ((p - a) * ab).sum(1) / np.maximum((ab * ab).sum(1), 1e-12)
    t = t.clip(0, 1)
    proj = a + ab * t[:, None]
    return np.hypot(*(proj - p).T).min()


def horiz_room(p, P):
    """Distance to the outline along the horizontal line through p (min of both sides)."""
    a = P
    b = np.roll(P, -1, axis=0)
    y = p[1]
    m = ((a[:, 1] <= y) & (b[:, 1] > y)) | ((b[:, 1] <= y) & (a[:, 1] > y))
    if not m.any():
        return 0.0
    xs = a[m, 0] + (y - a[m, 1]) * (b[m, 0] - a[m, 0]) / (b[m, 1] - a[m, 1])
    left = p[0] - xs[xs <= p[0]]
    right = xs[xs > p[0]] - p[0]
    if not len(left) or not len(right):
        return 0.0
    return float(min(left.min(), right.min()))


def label_point(poly: np.ndarray, candidates: np.ndarray, text_len: int) -> np.ndarray:
    _, centroid = poly_area_centroid(poly)
    half_text = text_len * 3.0 + 4
    best, bs = None, -math.inf
    for p in candidates:
        d = point_seg_dist(p, poly)
        hr = horiz_room(p, poly)
        score = min(d, 14.0) * 2 + min(hr, half_text) - 0.04 * np.hypot(*(p - centroid))
        if score > bs:
            best, bs = p, score
    if best is None:
        raise ValueError("no label point: no candidate scored")
    return best


# ----------------------------------------------------------------- assembling the map


def generate(seed: int, shape: Shape = Shape()):
    """One try at an island from ``seed``; :class:`Retry` says why it was not good enough."""
    N_LAND = shape.areas
    rng = np.random.default_rng(seed)
    pts, V, cells, nbrs = build_mesh(rng, shape.spacing)
    island = make_island(rng, pts, nbrs)
    lakes = make_lakes(rng, pts, island, nbrs, shape)
    lake_cells = set().union(*lakes)
    land_cells = sorted(island - lake_cells)
    seeds = kmeans_seeds(rng, pts, land_cells, N_LAND)
    land_owner = grow_regions(rng, pts, set(land_cells), nbrs, seeds)
    sizes = Counter(land_owner.values())
    if min(sizes.values()) < 4 or max(sizes.values()) > 3.2 * len(land_cells) / N_LAND:
        raise Retry(f"unbalanced land areas {min(sizes.values())}..{max(sizes.values())}")
    sea_owner = sea_sectors(rng, pts, set(range(len(cells))) - island, nbrs, shape.sectors)

    # regions: 0..N_LAND-1 land, then seas, then lakes
    n_seas = shape.seas
    cell_region = [0] * len(cells)
    for c, r in land_owner.items():
        cell_region[c] = r
    for c, r in sea_owner.items():
        cell_region[c] = N_LAND + r
    for k, lk in enumerate(lakes):
        for c in lk:
            cell_region[c] = N_LAND + n_seas + k
    n_regions = N_LAND + n_seas + len(lakes)
    if len(set(cell_region)) != n_regions:
        raise Retry("empty region")

    loops = region_loops(cells, cell_region, n_regions)
    vertex_regions = defaultdict(set)
    for ci, c in enumerate(cells):
        for v in c:
            vertex_regions[v].add(cell_region[ci])
    polys, chains = smooth_outlines(V, loops, vertex_regions)
    if segments_intersect_any(list(chains.values())):
        raise Retry("smoothed borders cross")

    # round, dedupe, derive adjacency from shared edges
    rpolys = []
    for P in polys:
        pts_r = [(round(float(x), 1), round(float(y), 1)) for x, y in P]
        ded = [p for k, p in enumerate(pts_r) if p != pts_r[k - 1]]
        if len(ded) < 3:
            raise Retry("degenerate polygon")
        rpolys.append(ded)
    edge_owner: defaultdict[frozenset, set[int]] = defaultdict(set)
    for r, P in enumerate(rpolys):
        for k in range(len(P)):
            a, b = P[k], P[(k + 1) % len(P)]
            edge_owner[frozenset((a, b))].add(r)
    adj: list[set[int]] = [set() for _ in range(n_regions)]
    for owners in edge_owner.values():
        if len(owners) > 2:
            raise Retry("edge shared by >2 areas")
        if len(owners) == 2:
            one, other = owners
            adj[one].add(other)
            adj[other].add(one)
    # the coarse (cell-level) adjacency must agree with the drawn one
    coarse: list[set[int]] = [set() for _ in range(n_regions)]
    for c, ns in enumerate(nbrs):
        for d in ns:
            if cell_region[c] != cell_region[d]:
                coarse[cell_region[c]].add(cell_region[d])
    if coarse != adj:
        raise Retry("adjacency changed by smoothing/rounding")

    # ---- terrain
    land = list(range(N_LAND))
    seas = list(range(N_LAND, N_LAND + n_seas))
    lake_ids = list(range(N_LAND + n_seas, n_regions))
    cent = {r: poly_area_centroid(np.array(rpolys[r]))[1] for r in range(n_regions)}
    terrain = assign_terrain(rng, land, adj, cent, set(seas), shape.hills, shape.forest, shape.ranges)

    # ---- checks
    coastal = {r for r in land if adj[r] & set(seas)}
    interior = [r for r in land if not adj[r] & (set(seas) | set(lake_ids))]
    for s in seas:
        if len(adj[s] & set(land)) < shape.sea_coast:
            raise Retry("sea touches too few land areas")
        if len(adj[s] & set(seas)) < 2:
            raise Retry("sea not in the ring")
    for lk in lake_ids:
        if adj[lk] - set(land):
            raise Retry("lake touches a sea")
    if any(len(adj[lk]) < borders for lk, (_, _, borders) in zip(lake_ids, shape.lakes, strict=True)):
        raise Retry("lake borders too few areas")
    if len(interior) < shape.min_interior:
        raise Retry("too few interior areas")
    if len(coastal) < shape.min_coastal:
        raise Retry("too few coastal areas")

    # ---- names
    names = assign_names(rng, land, terrain, cent)
    for k, s in enumerate(seas):
        names[s] = shape.sectors[k][1]
    for k, lk in enumerate(lake_ids):
        names[lk] = shape.lakes[k][0]
    if len({slug(n) for n in names.values()}) != len(names):
        raise Retry("two areas with one name")

    # label points: cell sites and midpoints between neighbouring sites
    region_cells = defaultdict(list)
    for c, r in enumerate(cell_region):
        region_cells[r].append(c)
    labels = {}
    for r in range(n_regions):
        cs = region_cells[r]
        cand = [pts[c] for c in cs]
        cand += [(pts[c] + pts[d]) / 2 for c in cs for d in nbrs[c] if cell_region[d] == r and d > c]
        lp = label_point(np.array(rpolys[r]), np.array(cand), len(names[r]))
        labels[r] = (round(float(lp[0]), 1), round(float(lp[1]), 1))

    return dict(seed=seed, polys=rpolys, adj=adj, terrain=terrain, names=names, labels=labels,
                land=land, seas=seas, lakes=lake_ids, interior=interior, coastal=coastal)


def assign_terrain(rng, land, adj, cent, seas, n_hills=BASE_HILLS, n_forest=BASE_FOREST, ranges=HILL_RANGES):
    landset = set(land)
    # hill ranges: line segments across the island; the nearest areas become hills
    segs = []
    for length in ranges:
        for _ in range(100):
            ang = rng.uniform(0, math.pi)
            c = np.array([CX, CY]) + rng.uniform(-0.55, 0.55, 2) * [RX, RY]
            if any(np.hypot(*(c - (a + b) / 2)) < 230 for a, b in segs):
                continue
            d = np.array([math.cos(ang), math.sin(ang)]) * length / 2
            segs.append((c - d, c + d))
            break
        else:
            raise Retry("no hill range")

    def seg_dist(p):
        best = math.inf
        for a, b in segs:
            ab = b - a
            t = float(np.clip(((p - a) @ ab) / (ab @ ab), 0, 1))
            best = min(best, float(np.hypot(*(p - a - t * ab))))
        return best

    order = sorted(land, key=lambda r: seg_dist(cent[r]))
    hills = set(order[:n_hills])
    for r in hills:
        if not adj[r] & hills:
            raise Retry("isolated hill area")
    # forests: three blocks grown from seeds far apart
    free = [r for r in land if r not in hills]
    seeds = [free[rng.integers(len(free))]]
    while len(seeds) < 3:
        seeds.append(max(free, key=lambda r: min(np.hypot(*(cent[r] - cent[s])) for s in seeds)))
    forest = set(seeds)
    frontiers = [set(seeds[k:k + 1]) for k in range(3)]
    k = 0
    while len(forest) < n_forest:
        block = frontiers[k % 3]
        cand = sorted({n for b in block for n in adj[b] if n in landset and n not in hills and n not in forest})
        if cand:
            pick = cand[rng.integers(len(cand))]
            forest.add(pick)
            block.add(pick)
        k += 1
        if k > 1000:
            raise Retry("forest growth stuck")
    return {r: ("hills" if r in hills else "forest" if r in forest else "plains") for r in land}


def assign_names(rng, land, terrain, cent):
    pools = {"hills": list(HILLS_NAMES), "forest": list(FOREST_NAMES), "plains": list(PLAINS_NAMES)}
    taken = {slug(n) for n in HILLS_NAMES + FOREST_NAMES + PLAINS_NAMES}
    for p in pools.values():
        rng.shuffle(p)
    for t, p in pools.items():  # then, for a big island, made-up names (popped last)
        extra = [f"{a} {b}" for a in PREFIXES[t] for b in EPITHETS]
        rng.shuffle(extra)
        pools[t] = [e for e in extra if slug(e) not in taken] + p
    names = {}
    for r in sorted(land, key=lambda r: (cent[r][1], cent[r][0])):
        names[r] = pools[terrain[r]].pop()
    return names


# ----------------------------------------------------------------- output


def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fmt(v: float) -> str:
    return f"{v:.1f}"


def to_toml(m, map_id: str, name: str, header: list[str]) -> str:
    """The map file's text: ``[map]`` (``map_id``, ``name``) and one ``[[area]]`` per area,
    land first (top to bottom by 100 px bands, then left to right), then seas, then lakes."""
    names = m["names"]
    order = sorted(m["land"], key=lambda r: (int(m["labels"][r][1] // 100), m["labels"][r][0]))
    order += m["seas"] + m["lakes"]
    ids = {r: slug(names[r]) for r in order}
    if len(set(ids.values())) != len(ids) or len(set(names.values())) != len(names):
        raise ValueError("two areas with one name (generate retries such an island)")
    pos = {r: k for k, r in enumerate(order)}
    lines = [*(f"# {h}" for h in header),
        "",
        "[map]",
        f"id = {toml_str(map_id)}",
        f"name = {toml_str(name)}",
        f"width = {int(W)}",
        f"height = {int(H)}",
    ]
    for r in order:
        lines.append("")
        lines.append("[[area]]")
        lines.append(f"id = {toml_str(ids[r])}")
        lines.append(f"name = {toml_str(names[r])}")
        if r in m["land"]:
            lines.append('kind = "land"')
            lines.append(f"terrain = {toml_str(m['terrain'][r])}")
        else:
            lines.append('kind = "sea"')
            if r in m["lakes"]:
                lines.append("inland = true")
        nb = sorted(m["adj"][r], key=lambda n: pos[n])
        lines.append("adjacent = [" + ", ".join(toml_str(ids[n]) for n in nb) + "]")
        pts = ", ".join(f"[{fmt(x)}, {fmt(y)}]" for x, y in m["polys"][r])
        lines.append(f"polygon = [{pts}]")
        lx, ly = m["labels"][r]
        lines.append(f"label = [{fmt(lx)}, {fmt(ly)}]")
    return "\n".join(lines) + "\n"


def make(seed: int, shape: Shape = Shape(), tries: int = 200) -> tuple[dict, int]:
    """The island of ``seed``, or of the first seed after it whose island passes every
    check (at most ``tries``); and that seed."""
    reasons: Counter = Counter()
    for k in range(tries):
        try:
            return generate(seed + k, shape), seed + k
        except Retry as exc:
            reasons[str(exc)] += 1
    why = ", ".join(f"{r} ({n}x)" for r, n in reasons.most_common(3))
    raise MapGenerationError(f"no acceptable island with {shape.areas} areas and {shape.seas} seas from seed "
                             f"{seed} in {tries} tries (most often: {why})")


def most_seas(areas: int) -> int:
    """The most seas an island of ``areas`` land areas has: one a land area or more is
    too many for a short coast (a sea would touch a single land area)."""
    return min(MAX_SEAS, areas // 2)


@lru_cache(maxsize=256)
def generate_text(areas: int, seas: int, seed: int) -> tuple[str, str]:
    """A map file for ``realms map generate hy-breasil``, checked by the game's own map
    loader, and a line saying what it holds.

    Kept for as many islands as a server has live seeded games (``map_seed``): each
    reader of a view loads its board by name, and a board dropped from ``load_board``'s
    few is then rebuilt by parsing this text (tens of ms), not by generating the island
    again (seconds)."""
    if not MIN_AREAS <= areas <= MAX_AREAS:
        raise MapGenerationError(f"--areas must be {MIN_AREAS} to {MAX_AREAS}, not {areas}")
    most = most_seas(areas)
    if not MIN_SEAS <= seas <= most:
        where = f" for {areas} areas" if most < MAX_SEAS else ""
        raise MapGenerationError(f"--seas must be {MIN_SEAS} to {most}{where}, not {seas}")
    if seed < 0:
        raise MapGenerationError(f"--seed must be 0 or more, not {seed}")
    shape = Shape(areas, seas)
    m, used = make(seed, shape)
    text = to_toml(m, f"hy-breasil-{areas}-{seas}-{seed}", f"Hy Breasil ({areas} areas, seed {seed})",
                   [f"Hy Breasil: an island made by realms map generate hy-breasil --areas {areas} --seas {seas} "
                    f"--seed {seed}", f"(island of seed {used}).  Adjacency is derived from shared polygon edges."])
    check(text)
    mix = Counter(m["terrain"].values())
    summary = (f"{len(m['land'])} land areas ({mix['plains']} plains, {mix['forest']} forest, {mix['hills']} hills), "
               f"{len(m['seas'])} seas, {len(m['lakes'])} inland seas, {len(m['coastal'])} coastal")
    return text, summary


def check(text: str) -> None:
    """Load ``text`` as the game loads a map file (its own checks: areas, adjacency both
    ways, terrains, polygons) and build the board from it."""
    import tempfile

    from realms.core.mapgraph import load_map

    from .board import Board
    from .tables import TERRAINS, load_tables

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.toml"
        path.write_text(text, encoding="utf-8")
        Board(load_map(path, TERRAINS), load_tables())


def generator() -> MapGenerator:
    """``realms map generate hy-breasil --areas N --seas S --seed X -o FILE``."""
    return MapGenerator(
        arguments=(
            Argument("areas", int, f"Land areas ({MIN_AREAS}-{MAX_AREAS}).", BASE_AREAS),
            Argument("seas", int, f"Seas round the island ({MIN_SEAS}-{MAX_SEAS}, at most half the land "
                                  "areas); inland seas come too (two from 24 areas, one from 20).", len(SEA_SECTORS)),
            Argument("seed", int, "The island's seed (0 or more): one seed, one island.", 0),
        ),
        generate=lambda v: generate_text(v["areas"], v["seas"], v["seed"]),
        help="A new island of plains, forest and hills with its seas, valid by the game's map loader; "
             "play it with --option map=FILE (simulate, play).",
    )

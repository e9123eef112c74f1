"""Loading a large mesh never freezes the window, end to end under a virtual
X server (Xvfb):

1. The program starts on a large generated OBJ (a subdivided sphere,
   tetrahedralized on load). The window must open at once and keep drawing
   while the file loads in the background: the log reports the progress
   once a second with the frames drawn meanwhile, and those must keep
   coming. F12 during the load saves a screenshot of the progress bar. The
   load must end, the body must run its frames and the program exit cleanly.
2. The same start, and Esc during the load: the load is cancelled and the
   program exits within seconds, cleanly.

Run as: loading_check.py SOFTBODY WORKDIR (it starts Xvfb itself through
xvfb-run). Skips (exit 77) only where xvfb-run or xdotool is missing.
"""
import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from window_driver import run_inner_under_xvfb, wait_for, xdotool

# Sphere subdivision levels and lattice resolutions, from small to large:
# the first whose load takes at least MIN_LOAD_S is the test (a load too
# quick to watch shows nothing: the log reports progress once a second, and
# the test wants two reports with frames drawn between them). The first
# takes 2-6 s on two cores, the second some 10 s.
SIZES = [(3, 20), (5, 32), (6, 48)]
MIN_LOAD_S = 4.0
# A frozen window draws no frame during the load; llvmpipe, sharing the
# cores with the load (and, on a shared machine, with others), draws a few
# per second; half a frame per second is the floor.
MIN_FPS_DURING_LOAD = 0.5

PROGRESS = re.compile(r"loading (\S+): ([a-z ]+) (\d+)% after ([\d.]+) s, (\d+) frames drawn")
LOADED = re.compile(r"loaded (\S+) in ([\d.]+) s \((\d+) frames drawn meanwhile\)")


def outer(softbody, workdir):
    return run_inner_under_xvfb(__file__, softbody, workdir, 1200)


def write_icosphere(path, levels):
    """A unit sphere: an icosahedron subdivided `levels` times (20 * 4^levels
    triangles), outward and counter-clockwise."""
    t = (1 + 5 ** 0.5) / 2
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [tuple(c / math.sqrt(sum(x * x for x in p)) for c in p) for p in verts]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(levels):
        midpoints = {}

        def midpoint(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoints:
                p = [(x + y) / 2 for x, y in zip(verts[a], verts[b])]
                n = math.sqrt(sum(c * c for c in p))
                verts.append(tuple(c / n for c in p))
                midpoints[key] = len(verts) - 1
            return midpoints[key]

        finer = []
        for a, b, c in faces:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            finer += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = finer
    with open(path, "w") as out:
        out.writelines(f"v {x:.6f} {y:.6f} {z:.6f}\n" for x, y, z in verts)
        out.writelines(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces)
    return len(faces)


def start(softbody, workdir, name, mesh, resolution, frames):
    log_path = workdir / f"loading_{name}.log"
    with open(log_path, "w") as log:
        app = subprocess.Popen([softbody, "--mesh", str(mesh), "--resolution", str(resolution),
                                "--frames", str(frames), "--screenshot",
                                str(workdir / f"loading_{name}_end.png")],
                               stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    return app, log_path


def is_png(path, min_bytes=20000):
    data = path.read_bytes() if path.exists() else b""
    return data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > min_bytes


def keeps_drawing(softbody, workdir, mesh, resolution, failures):
    """Check 1. Returns how long the load took, or None if it never ended."""
    for old in workdir.glob("softbody-*.png"):
        old.unlink()
    app, log_path = start(softbody, workdir, "keeps_drawing", mesh, resolution, 10)
    try:
        if not wait_for(log_path, r"loading \S+ in the background", 60, app):
            failures.append("keeps_drawing: the load did not start")
            return None
        if wait_for(log_path, PROGRESS.pattern, 60, app):
            # The window has no focus of its own under a bare X server: the
            # pointer over it gives it the keys.
            xdotool("mousemove", "640", "360")
            xdotool("key", "F12")
        loaded = wait_for(log_path, LOADED.pattern, 900, app)
        code = app.wait(timeout=300)
    finally:
        if app.poll() is None:
            app.kill()
    log = log_path.read_text()
    print(log)
    if code != 0:
        failures.append(f"keeps_drawing: exit code {code}")
    if not loaded:
        failures.append("keeps_drawing: the load never ended")
        return None
    took_s, frames = float(loaded.group(2)), int(loaded.group(3))
    if took_s < MIN_LOAD_S:
        return took_s  # too quick to tell; the caller tries a larger mesh
    progress = [(float(m.group(4)), int(m.group(5))) for m in PROGRESS.finditer(log)]
    if len(progress) < 2:
        failures.append(f"keeps_drawing: {len(progress)} progress lines in a {took_s} s load")
    if any(b[1] <= a[1] for a, b in zip(progress, progress[1:])):
        failures.append(f"keeps_drawing: the frame count stalled during the load: {progress}")
    if frames < MIN_FPS_DURING_LOAD * took_s:
        failures.append(f"keeps_drawing: {frames} frames drawn in a {took_s} s load")
    shots = sorted(workdir.glob("softbody-*.png"))
    if not shots or not is_png(shots[-1]):
        failures.append("keeps_drawing: no screenshot (F12) during the load")
    else:
        shutil.copy(shots[-1], workdir / "loading_progress.png")
        print(f"screenshot during the load: {workdir / 'loading_progress.png'}")
    if not is_png(workdir / "loading_keeps_drawing_end.png"):
        failures.append("keeps_drawing: no screenshot of the loaded body at the end")
    if "vertices" not in log.split("loaded ", 1)[-1]:
        failures.append("keeps_drawing: the loaded body was not reported")
    return took_s


def esc_cancels(softbody, workdir, mesh, resolution, failures):
    """Check 2."""
    app, log_path = start(softbody, workdir, "esc_cancels", mesh, resolution, 30)
    try:
        if not wait_for(log_path, PROGRESS.pattern, 60, app):
            failures.append("esc_cancels: no progress reported")
            return
        xdotool("mousemove", "640", "360")
        pressed = time.time()
        xdotool("key", "Escape")
        code = app.wait(timeout=60)
        quit_s = time.time() - pressed
    finally:
        if app.poll() is None:
            app.kill()
    log = log_path.read_text()
    print(log, f"exited {quit_s:.1f} s after Esc")
    if code != 0:
        failures.append(f"esc_cancels: exit code {code}")
    if not re.search(r"loading \S+ cancelled after", log):
        failures.append("esc_cancels: the log does not say the load was cancelled")
    if LOADED.search(log):
        failures.append("esc_cancels: the load ran to the end")
    if quit_s > 10.0:
        failures.append(f"esc_cancels: took {quit_s:.1f} s to exit")


def inner(softbody, workdir):
    workdir = Path(workdir)
    failures = []
    for levels, resolution in SIZES:
        mesh = workdir / f"loading_sphere{levels}.obj"
        triangles = write_icosphere(mesh, levels)
        print(f"--- a sphere of {triangles} triangles at resolution {resolution}")
        attempt = []
        took_s = keeps_drawing(softbody, workdir, mesh, resolution, attempt)
        if took_s is not None and took_s < MIN_LOAD_S and (levels, resolution) != SIZES[-1]:
            print(f"loaded in {took_s} s: too quick to watch, trying a larger mesh")
            continue
        failures += attempt
        if took_s is not None and took_s < MIN_LOAD_S:
            failures.append(f"even the largest mesh loads in {took_s} s: too quick to watch")
        # Cancelling needs a load that is surely still running when Esc
        # arrives, on a busy machine or an idle one: the largest mesh.
        levels, resolution = SIZES[-1]
        mesh = workdir / f"loading_sphere{levels}.obj"
        write_icosphere(mesh, levels)
        esc_cancels(softbody, workdir, mesh, resolution, failures)
        break
    for f in failures:
        print("FAIL:", f)
    print(f"loading_check: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--inner":
        sys.exit(inner(str(Path(sys.argv[2]).resolve()), sys.argv[3]))
    sys.exit(outer(sys.argv[1], sys.argv[2]))

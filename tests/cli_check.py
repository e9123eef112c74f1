"""End-to-end check of the softbody executable's headless mode.

Runs the documented command, checks the JSON it writes and the positions it
dumps, checks that bad flags and hostile values are refused with exit status
2 (unwritable outputs before the run), and that a failed write is an error.
"""
import json
import math
import subprocess
import sys
import time
from pathlib import Path

softbody, workdir = sys.argv[1], Path(sys.argv[2])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(*args):
    return subprocess.run([softbody, *args], capture_output=True, text=True, timeout=600)


# The cube after 5 s: on the ground and at rest.
stats_path = workdir / "cli_cube_stats.json"
dump_path = workdir / "cli_cube_positions.txt"
result = run("--headless", "--solver", "cpu", "--preset", "cube", "--frames", "300",
             "--stats", str(stats_path), "--dump-positions", str(dump_path))
print(result.stdout, result.stderr)
check(result.returncode == 0, f"headless run exit code {result.returncode}")
stats = json.loads(stats_path.read_text())
for key in ["preset", "method", "vertices", "tets", "frames", "substeps", "iterations", "ms_per_frame",
            "min_y", "max_y", "centroid", "inverted_tets", "nan_count", "max_speed",
            "centroid_speed"]:
    check(key in stats, f"stats JSON lacks '{key}'")
stats_keys = ["preset", "solver", "vertices", "tets", "frames", "diverged", "method", "substeps",
              "iterations", "youngs_modulus_pa", "poisson_ratio", "ms_per_frame", "min_y", "max_y",
              "centroid", "inverted_tets", "nan_count", "max_speed", "centroid_speed",
              "momentum", "angular_momentum", "kinetic_energy", "mean_residual", "bodies",
              "max_penetration_m", "max_penetration_between_bodies_m"]
check(list(stats) == stats_keys, f"stats JSON keys in their order: {list(stats)}")
check(stats["diverged"] is False and isinstance(stats["mean_residual"], float),
      f"a calm CPU run: not diverged, a residual ({stats['diverged']}, {stats['mean_residual']})")
check(stats_path.read_text().endswith("}\n"), "stats JSON ends with a newline")
check(stats["preset"] == "cube" and stats["vertices"] == 343 and stats["tets"] == 1296,
      "stats describe the cube")
check(stats["frames"] == 300 and stats["substeps"] == 10 and stats["iterations"] == 8,
      "stats echo the schedule")
check(stats["nan_count"] == 0 and stats["inverted_tets"] == 0, "no NaN, no inverted tet")
check(0.0 <= stats["min_y"] < 0.01, f"cube touches the ground (min_y {stats['min_y']})")
# After 5 s the body is at rest as a whole (measured 0.011 m/s) and only
# quivers a little (0.025 m/s).
check(stats["centroid_speed"] < 0.03, f"cube has come to rest (centroid_speed {stats['centroid_speed']})")
check(stats["max_speed"] < 0.1, f"cube only quivers (max_speed {stats['max_speed']})")
check(0.2 < stats["centroid"][1] < 0.26, f"cube rests on a face (centroid y {stats['centroid'][1]})")

lines = dump_path.read_text().splitlines()
check(len(lines) == 343, f"dump has one line per vertex ({len(lines)})")
ys = [float(line.split()[1]) for line in lines]
check(math.isclose(min(ys), stats["min_y"], abs_tol=1e-6), "dump agrees with stats")

# --frames 0 dumps the initial, placed positions: above the ground.
result = run("--headless", "--preset", "torus", "--frames", "0", "--dump-positions",
             str(dump_path))
check(result.returncode == 0, "frames 0 run")
check(len(dump_path.read_text().splitlines()) == 600, "torus dump has 600 lines")

# Refusals: exit code 2 and a message that names the flag.
for args, flag in [(["--headless", "--frames", "ten"], "--frames"),
                   (["--headless", "--preset", "teapot"], "--preset"),
                   (["--headless", "--youngs", "-5"], "--youngs"),
                   (["--headless", "--poisson", "0.5"], "--poisson"),
                   (["--headless", "--substeps", "0"], "--substeps"),
                   (["--headless", "--iterations"], "--iterations"),
                   (["--headless", "--bogus"], "--bogus"),
                   (["--headless", "--method", "newton"], "--method")]:
    result = run(*args)
    check(result.returncode == 2, f"{args} exit code {result.returncode}, expected 2")
    check(flag in result.stderr, f"{args} message names {flag}: {result.stderr.strip()}")

# Hostile values: refused at once with exit 2, naming the flag. The drag is
# the one whose |offset| overflowed to NaN on both solvers.
for args, flag in [(["--headless", "--drag", "0:2:0:1e38,1e38,1e38"], "--drag"),
                   (["--headless", "--resolution", "200"], "--resolution"),
                   (["--headless", "--threads", "256"], "--threads"),
                   (["--headless", "--size", "8192x8192"], "--size"),
                   (["--headless", "--frames", "100000000"], "--frames"),
                   (["--headless", "--mesh", ""], "--mesh"),
                   (["--headless", "--stats", ""], "--stats")]:
    result = run(*args)
    check(result.returncode == 2, f"{args} exit code {result.returncode}, expected 2")
    check(flag in result.stderr, f"{args} message names {flag}: {result.stderr.strip()}")

# An output that cannot be written fails before the simulation, not after
# it: this run would take minutes.
missing = "/nonexistent/dir/x.json"
started = time.monotonic()
result = run("--headless", "--preset", "bunny", "--frames", "100000", "--stats", missing)
seconds = time.monotonic() - started
check(result.returncode == 2, f"--stats {missing}: exit code {result.returncode}, expected 2")
check("--stats" in result.stderr and missing in result.stderr,
      f"--stats {missing}: message names the option and the path: {result.stderr.strip()}")
check(seconds < 10, f"--stats {missing} refused before simulating ({seconds:.1f} s)")

# A write that fails (a full disk) is an error with the OS's reason.
result = run("--headless", "--preset", "cube", "--frames", "1", "--stats", "/dev/full")
check(result.returncode == 1, f"--stats /dev/full: exit code {result.returncode}, expected 1")
check("/dev/full" in result.stderr and "No space left" in result.stderr,
      f"--stats /dev/full: message names the path and why: {result.stderr.strip()}")

# The GPU solver headless, with a screenshot of the real renderer offscreen.
shot_path = workdir / "cli_beam.png"
result = run("--headless", "--solver", "gpu", "--preset", "beam", "--frames", "120",
             "--screenshot", str(shot_path), "--stats", str(stats_path))
print(result.stdout, result.stderr)
if result.returncode != 0 and "no OpenGL context" in result.stderr:
    print("SKIP: no OpenGL context here:", result.stderr.strip())
else:
    check(result.returncode == 0, f"gpu headless run exit code {result.returncode}")
    stats = json.loads(stats_path.read_text())
    check(stats["solver"] == "gpu" and stats["nan_count"] == 0, "gpu run is sane")
    png = shot_path.read_bytes() if shot_path.exists() else b""
    check(png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10000,
          f"screenshot is a PNG with content ({len(png)} bytes)")

    # The same offscreen screenshot onto a full disk: stb's writer used to
    # say nothing and the run printed "screenshot written".
    result = run("--headless", "--preset", "cube", "--frames", "1", "--size", "64x64",
                 "--screenshot", "/dev/full")
    check(result.returncode != 0, f"--screenshot /dev/full: exit code {result.returncode}")
    check("screenshot written" not in result.stdout, "--screenshot /dev/full not 'written'")
    check("/dev/full" in result.stderr and "No space left" in result.stderr,
          f"--screenshot /dev/full: message names the path and why: {result.stderr.strip()}")

# Free flight from a scene file: no gravity, no ground, no air damping, a
# cube thrown spinning. Its momentum and angular momentum (about its centre of mass)
# after a second are what they were at the start; before each tet step was
# made torque-free the spin lost 1.7% a second.
scene_path = workdir / "cli_spinning_cube.json"
scene_path.write_text(json.dumps({
    "gravity": [0, 0, 0], "ground": False,
    "bodies": [{"preset": "cube", "position": [0, 1, 0], "velocity": [1, 0, 0],
                "angular_velocity": [0.5, 3, 1], "youngs": 1e6}]}))
spin = {}
for frames in ["0", "60"]:
    result = run("--headless", "--solver", "cpu", "--scene", str(scene_path), "--damping", "0",
                 "--frames", frames, "--stats", str(stats_path))
    check(result.returncode == 0, f"spinning cube, {frames} frames: exit code {result.returncode} "
                                  f"{result.stderr}")
    spin[frames] = json.loads(stats_path.read_text())
start, end = spin["0"], spin["60"]
l0, l1 = math.hypot(*start["angular_momentum"]), math.hypot(*end["angular_momentum"])
check(l0 > 0.1 and abs(l1 / l0 - 1) < 2e-3,
      f"angular momentum kept in free flight: {start['angular_momentum']} -> {end['angular_momentum']}")
p0, p1 = start["momentum"], end["momentum"]
check(p0[0] > 1 and all(abs(a - b) < 1e-5 * p0[0] for a, b in zip(p0, p1)),
      f"momentum kept in free flight: {p0} -> {p1}")
check(abs(end["centroid"][0] - start["centroid"][0] - 1.0) < 1e-3,
      f"the cube flew 1 m in 1 s: {start['centroid']} -> {end['centroid']}")

# The bunny preset and own meshes: an OBJ tetrahedralized on load (also as
# the bare last argument), and a bad file refused with its name.
result = run("--headless", "--preset", "bunny", "--frames", "30", "--stats", str(stats_path))
check(result.returncode == 0, f"bunny run exit code {result.returncode}")
stats = json.loads(stats_path.read_text())
check(stats["preset"] == "bunny" and stats["tets"] > 4000 and stats["nan_count"] == 0,
      f"bunny preset: {stats['tets']} tets")
repo = Path(__file__).resolve().parent.parent
for args in (["--mesh", str(repo / "assets" / "bunny.obj")], [str(repo / "assets" / "bunny.obj")]):
    result = run("--headless", "--resolution", "8", "--frames", "10", "--stats", str(stats_path),
                 *args)
    check(result.returncode == 0, f"{args}: exit code {result.returncode} {result.stderr}")
    stats = json.loads(stats_path.read_text())
    check(stats["preset"].endswith("bunny.obj") and stats["tets"] > 500, f"{args} loaded")
bad = workdir / "cli_not_a_mesh.obj"
bad.write_text("this is not an OBJ file\n")
for path in [str(bad), str(workdir / "cli_missing.obj"), str(workdir / "cli_unknown.xyz")]:
    result = run("--headless", "--mesh", path, "--frames", "1")
    check(result.returncode == 1, f"bad file {path}: exit code {result.returncode}")
    check(Path(path).name in result.stderr, f"bad file message names it: {result.stderr.strip()}")
check(run("--headless", "--resolution", "1").returncode == 2, "--resolution 1 refused")

# The benchmark: a short run of both solvers on the cube writes its rows as
# JSON, the figures consistent with each other; a bad mesh name is refused.
bench_path = workdir / "cli_bench.json"
result = run("--bench", "--bench-meshes", "cube", "--frames", "3", "--json", str(bench_path))
print(result.stdout, result.stderr)
check(result.returncode == 0, f"bench exit code {result.returncode}")
check("M solve/s" in result.stdout and "cube" in result.stdout, "bench prints its table")
bench_text = bench_path.read_text() if bench_path.exists() else "[]"
rows = json.loads(bench_text)
check(len(bench_text.splitlines()) == len(rows) + 2, "bench JSON: one row per line")
check(any(r["solver"] == "cpu" for r in rows), "bench has a CPU row")
for row in rows:
    for key in ["mesh", "solver", "vertices", "tets", "substeps", "iterations", "ms_per_frame",
                "tet_solves_per_s", "frame_clock", "bytes_per_tet", "passes_ms"]:
        check(key in row, f"bench row lacks '{key}'")
    # Memory per tet: at least the tet's corners and rest shape (16 + 36
    # bytes), far less than a kilobyte.
    check(52 < row.get("bytes_per_tet", 0) < 1000, f"bench bytes_per_tet plausible: {row}")
    if row.get("solver") == "gpu":
        # At least predict, the tets and the velocities for each of 10 substeps.
        check(row.get("dispatches_per_frame", 0) >= 30, f"GPU row counts its dispatches: {row}")
        check("an iteration" in row.get("tet_pass", ""), f"GPU row says how its tet pass was laid out: {row}")
    else:
        check("dispatches_per_frame" not in row and "tet_pass" not in row,
              f"CPU row has no dispatch count or GPU layout: {row}")
    if "ms_per_frame" in row and "tet_solves_per_s" in row:
        expected = row["tets"] * row["substeps"] * row["iterations"] / (row["ms_per_frame"] * 1e-3)
        check(row["mesh"] == "cube" and row["tets"] == 1296 and row["frames"] == 3,
              f"bench row describes 3 frames of the cube: {row}")
        check(math.isclose(row["tet_solves_per_s"], expected, rel_tol=1e-6),
              f"tet solves per second = tets x substeps x iterations / time: {row}")
        check(row["ms_p10"] <= row["ms_per_frame"] <= row["ms_p90"], f"median within spread: {row}")
result = run("--bench", "--bench-meshes", "teapot")
check(result.returncode == 2 and "teapot" in result.stderr, "unknown bench mesh refused")

result = run("--help")
check(result.returncode == 0 and "--dump-positions" in result.stdout, "--help lists the flags")

print(f"cli_check: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
sys.exit(1 if failures else 0)

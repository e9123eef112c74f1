"""Smoke tests of the windowed program under a virtual X server (Xvfb).

1. Opens the real window (GLFW, OpenGL, Dear ImGui), lets the torus fall for
   60 frames, saves a screenshot of the window with its panel, and quits.
2. The same with Mesa told to offer OpenGL 3.3 only: no compute shaders, so
   the CPU solver runs and the window says so.
3. With a broken compute shader (in a file the passes include): the log
   names that file and the line, and the program falls back to the CPU
   solver instead of stopping.
4. --solver auto: both solvers are timed on the first world and the faster
   runs (llvmpipe starts on the CPU solver without timing unless asked).
Skips (exit 77) only where xvfb-run is not installed.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

softbody, workdir = sys.argv[1], Path(sys.argv[2])
if shutil.which("xvfb-run") is None:
    print("SKIP: xvfb-run is not installed")
    sys.exit(77)

failures = []


def run_window(name, preset, frames, extra_env=None, extra_args=()):
    shot = workdir / f"window_{name}.png"
    shot.unlink(missing_ok=True)
    env = dict(os.environ, **(extra_env or {}))
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", softbody, "--preset", preset,
         "--frames", str(frames), "--screenshot", str(shot), *extra_args],
        capture_output=True, text=True, timeout=600, env=env)
    print(f"--- {name}:", result.stdout, result.stderr)
    if result.returncode != 0:
        failures.append(f"{name}: exit code {result.returncode}")
    png = shot.read_bytes() if shot.exists() else b""
    if not (png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20000):
        failures.append(f"{name}: no screenshot with content ({len(png)} bytes)")
    if "screenshot saved to" not in result.stderr:
        failures.append(f"{name}: the log does not name the screenshot")
    return result.stderr


log = run_window("torus", "torus", 60)
if "OpenGL 4." not in log:
    failures.append("torus: the log does not say which OpenGL 4.x context was obtained")

log = run_window("gl33", "cube", 20, {"MESA_GL_VERSION_OVERRIDE": "3.3"})
if "OpenGL 3.3" not in log:
    failures.append("gl33: no 3.3 context reported")

broken_dir = workdir / "broken_shaders"
shutil.rmtree(broken_dir, ignore_errors=True)
shutil.copytree(Path(__file__).resolve().parent.parent / "shaders", broken_dir)
# Broken in a file the solver's shaders include: the message must name it.
step = broken_dir / "tet_step.glsl"
step.write_text(step.read_text().replace("TetRest rest = tet_rests[t];", "TetRest rest = tet_rests[t]", 1))
log = run_window("broken_shader", "cube", 20, {"SOFTBODY_SHADER_DIR": str(broken_dir)})
if "tet_step.glsl:" not in log:
    failures.append("broken_shader: the log does not name tet_step.glsl and a line")
if "CPU solver" not in log:
    failures.append("broken_shader: no fallback to the CPU solver reported")

log = run_window("auto", "cube", 20, extra_args=("--solver", "auto"))
if "timing both solvers on cube" not in log:
    failures.append("auto: the log does not say the solvers are being timed")
if "solver, the faster here (timed at load: CPU" not in log:
    failures.append("auto: the log does not say which solver was timed faster")

for f in failures:
    print("FAIL:", f)
print(f"window_check: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
sys.exit(1 if failures else 0)

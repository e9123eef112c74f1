"""Smoke test of the windowed program under a virtual X server (Xvfb).

Opens the real window (GLFW, OpenGL, Dear ImGui), lets the torus fall for
60 frames, saves a screenshot of the window with its panel, and quits.
Skips (exit 77) only where xvfb-run is not installed.
"""
import shutil
import subprocess
import sys
from pathlib import Path

softbody, workdir = sys.argv[1], Path(sys.argv[2])
if shutil.which("xvfb-run") is None:
    print("SKIP: xvfb-run is not installed")
    sys.exit(77)

shot = workdir / "window_torus.png"
shot.unlink(missing_ok=True)
result = subprocess.run(
    ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", softbody, "--preset", "torus", "--frames",
     "60", "--screenshot", str(shot)],
    capture_output=True, text=True, timeout=600)
print(result.stdout, result.stderr)
failures = []
if result.returncode != 0:
    failures.append(f"exit code {result.returncode}")
if "OpenGL" not in result.stderr:
    failures.append("the log does not say which OpenGL context was obtained")
png = shot.read_bytes() if shot.exists() else b""
if not (png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20000):
    failures.append(f"no screenshot with content ({len(png)} bytes)")
if "screenshot saved to" not in result.stderr:
    failures.append("the log does not name the screenshot")
for f in failures:
    print("FAIL:", f)
print(f"window_check: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
sys.exit(1 if failures else 0)

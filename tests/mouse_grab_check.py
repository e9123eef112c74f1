"""The mouse, end to end: under a virtual X server, xdotool presses the left
button over the cube, drags upward and lets go, and the program's log must
show the grab and the release; Esc must quit it cleanly.

Run as: mouse_grab_check.py SOFTBODY WORKDIR (it starts Xvfb itself through
xvfb-run). Skips (exit 77) only where xvfb-run or xdotool is missing.
"""
import re
import subprocess
import sys
import time
from pathlib import Path

from window_driver import run_inner_under_xvfb, wait_for, xdotool


def outer(softbody, workdir):
    return run_inner_under_xvfb(__file__, softbody, workdir, 600)


def inner(softbody, workdir):
    log_path = Path(workdir) / "mouse_grab.log"
    with open(log_path, "w") as log:
        app = subprocess.Popen([softbody, "--preset", "cube", "--frames", "100000"],
                               stdout=log, stderr=subprocess.STDOUT)
    failures = []
    try:
        if not wait_for(log_path, re.escape("cube: 343 vertices"), 60):
            failures.append("the window did not start")
            return 1
        # G: the camera follows the cube, which then stays in the middle of
        # the part of the window right of the panel (x 440 .. 1280). Press
        # there until the log reports a grab.
        xdotool("mousemove", "860", "360")
        xdotool("key", "g")
        time.sleep(1.0)
        grabbed = False
        deadline = time.time() + 120
        while not grabbed and time.time() < deadline:
            xdotool("mousemove", "860", "360")
            xdotool("mousedown", "1")
            grabbed = wait_for(log_path, re.escape("grabbed the body"), 3)
            if not grabbed:
                xdotool("mouseup", "1")
                time.sleep(0.5)
        if not grabbed:
            failures.append("no grab was reported")
        else:
            for step in range(1, 11):
                xdotool("mousemove", "860", str(360 - 20 * step))
                time.sleep(0.3)
            xdotool("mouseup", "1")
            if not wait_for(log_path, re.escape("released"), 20):
                failures.append("no release was reported")
        xdotool("key", "Escape")
        code = app.wait(timeout=60)
        if code != 0:
            failures.append(f"exit code {code}")
    finally:
        if app.poll() is None:
            app.kill()
        print(log_path.read_text())
        for f in failures:
            print("FAIL:", f)
        print(f"mouse_grab_check: {'FAILED' if failures else 'passed'} "
              f"({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--inner":
        sys.exit(inner(sys.argv[2], sys.argv[3]))
    sys.exit(outer(sys.argv[1], sys.argv[2]))

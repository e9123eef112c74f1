"""What the window remembers, end to end: under a virtual X server, a run
without --frames turns the wireframe and follow mode on with their keys and
quits with Esc; settings.json and imgui.ini must then be in the config
folder ($XDG_CONFIG_HOME/softbody, here a fresh one), the next run must say
it started from them, and a broken settings file must be reported while
the window still starts and quits cleanly.

Run as: settings_check.py SOFTBODY WORKDIR. Skips (exit 77) only where
xvfb-run or xdotool is missing.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from window_driver import run_inner_under_xvfb, wait_for, xdotool


def outer(softbody, workdir):
    return run_inner_under_xvfb(__file__, softbody, workdir, 600)


def run(softbody, workdir, name, config, keys, expect, failures):
    """Starts the cube, presses `keys` once it runs, waits for `expect` in
    the log, quits with Esc; True when all of that happened."""
    log_path = Path(workdir) / f"settings_{name}.log"
    env = dict(os.environ, XDG_CONFIG_HOME=str(config))
    with open(log_path, "w") as log:
        app = subprocess.Popen([softbody, "--preset", "cube"], stdout=log,
                               stderr=subprocess.STDOUT, env=env)
    try:
        if not wait_for(log_path, r"cube: 343 vertices", 60, app):
            failures.append(f"{name}: the window did not start")
            return False
        if expect and not wait_for(log_path, expect, 10, app):
            failures.append(f"{name}: the log never said {expect!r}")
        xdotool("mousemove", "860", "360")
        for key in keys:
            xdotool("key", key)
        time.sleep(1.0)  # let a frame or two see the keys
        xdotool("key", "Escape")
        code = app.wait(timeout=60)
        if code != 0:
            failures.append(f"{name}: exit code {code}")
        return code == 0
    finally:
        if app.poll() is None:
            app.kill()
        print(f"--- {name}:\n{log_path.read_text()}")


def inner(softbody, workdir):
    failures = []
    config = Path(workdir) / "settings_config"
    shutil.rmtree(config, ignore_errors=True)
    folder = config / "softbody"

    run(softbody, workdir, "first", config, ["w", "g"], None, failures)
    settings_path = folder / "settings.json"
    if not settings_path.exists():
        failures.append("no settings.json after the first run")
    else:
        settings = json.loads(settings_path.read_text())
        if settings.get("wireframe") is not True or settings.get("follow") is not True:
            failures.append(f"W and G were not remembered: {settings}")
        if settings.get("window_size") != [1280, 720]:
            failures.append(f"window size {settings.get('window_size')}, not [1280, 720]")
    if not (folder / "imgui.ini").exists():
        failures.append("no imgui.ini (the panel's layout) after the first run")

    run(softbody, workdir, "second", config, [], r"settings as in the last run", failures)

    settings_path.write_text('{"wireframe": tru')
    run(softbody, workdir, "broken", config, [], r"settings '.*settings\.json': not a JSON object",
        failures)

    for f in failures:
        print("FAIL:", f)
    print(f"settings_check: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--inner":
        sys.exit(inner(sys.argv[2], sys.argv[3]))
    sys.exit(outer(sys.argv[1], sys.argv[2]))

"""What the window checks driven by xdotool share: running their own inner
half under a virtual X server, pressing keys and the mouse, and waiting for
a line in the program's log."""
import re
import shutil
import subprocess
import sys
import time


def run_inner_under_xvfb(script, softbody, workdir, timeout_s):
    """Runs `script --inner SOFTBODY WORKDIR` under xvfb-run; 77 (skip) where
    xvfb-run or xdotool is missing."""
    if shutil.which("xvfb-run") is None or shutil.which("xdotool") is None:
        print("SKIP: xvfb-run or xdotool is not installed")
        return 77
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", sys.executable, script, "--inner",
         softbody, workdir], timeout=timeout_s)
    return result.returncode


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True)


def wait_for(log_path, pattern, seconds, app=None):
    """The first match of the regular expression `pattern` in the log, or None
    after `seconds` (or once `app`, if given, has exited)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        match = re.search(pattern, log_path.read_text())
        if match:
            return match
        if app is not None and app.poll() is not None:
            return re.search(pattern, log_path.read_text())
        time.sleep(0.1)
    return None

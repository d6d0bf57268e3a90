"""Start `engine gui` on a free loopback port for the board-server checks."""

import re
import subprocess


def start_gui(engine, *args):
    """Run `engine gui --port 0 ARGS...`; return the process and its port.

    The server prints `listening on http://127.0.0.1:N/` as its first line.
    """
    proc = subprocess.Popen([engine, "gui", "--port", "0", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.match(r"listening on http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, int(match.group(1))

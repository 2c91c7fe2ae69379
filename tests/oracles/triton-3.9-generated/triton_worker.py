"""A Triton worker subprocess for the corpus generators in this folder.

Triton aborts the whole process on many invalid configurations (C++ asserts, LLVM fatal
errors), so each generator runs its calls in a child Python that reads one JSON request per line
and answers ``@@<json>``; a dead child becomes a refused row (with Triton's message from its
stderr) and a fresh child takes the next request.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile


class TritonWorker:
    """Runs ``source`` (a loop over stdin lines answering ``@@<json>``) in a restartable child."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.proc: subprocess.Popen | None = None
        self.err = None

    def _start(self) -> None:
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", self.source], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True
        )

    def run(self, *request: object) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(list(request)) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("@@"):
                return json.loads(line[2:])
        status = self.proc.wait()
        self.err.seek(0)
        msgs = [l.strip() for l in self.err.read().splitlines() if l.startswith(("error:", "LLVM ERROR:")) or "Assertion" in l]
        self.proc = None
        why = msgs[0] if msgs else ""
        if "Assertion `" in why:  # keep the asserted condition, not the whole template signature
            why = "Assertion " + why.split("Assertion ", 1)[1]
        return {"error": f"triton aborted (status {-status if status < 0 else status}): {why}"[:300]}

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()

"""Sweeps: run a function over many items on any :class:`concurrent.futures.Executor` (a process
pool, ``"serial"``, a Dask cluster's executor), in chunks, with a progress bar.

    >>> sweep(abs, [-1, 2, -3], executor="serial")
    [1, 2, 3]
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from linlayout.errors import LayoutError

__all__ = ["Progress", "sweep"]


#: what to install for the progress bar (tqdm: maintained, shows rate and time left)
PROGRESS_EXTRA = "pip install 'linlayout[progress]'  (or: pip install tqdm)"


class Progress:
    """A progress bar on stderr with rate and time left, drawn by ``tqdm`` (an optional
    dependency: the ``progress`` extra).  Without tqdm there is no bar: one line on the stream
    says what to install, and the sweep runs the same.

        >>> import io
        >>> with Progress(3, "demo", enabled=False) as p:
        ...     p.update(3)
        >>> p.done
        3
    """

    def __init__(self, total: int, desc: str = "", *, enabled: bool = True, stream: Any = None):
        self.total = total
        self.desc = desc
        self.done = 0
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self._tqdm = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                self.stream.write(f"(no progress bar: it needs tqdm; {PROGRESS_EXTRA})\n")
                self.stream.flush()
            else:
                self._tqdm = tqdm(total=total, desc=desc, file=self.stream, leave=True, unit="item", smoothing=0.1)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._tqdm is not None:
            self._tqdm.update(n)

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
            self._tqdm = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _run_chunk(fn: Callable[[Any], Any], chunk: Sequence[Any]) -> list[Any]:
    return [fn(x) for x in chunk]


#: Sweeps with fewer items than this run serially when no executor is given.
SERIAL_THRESHOLD = 512


def sweep(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    *,
    executor: cf.Executor | str | None = None,
    chunksize: int | None = None,
    progress: bool = False,
    desc: str = "sweep",
) -> list[Any]:
    """``[fn(x) for x in items]``, in chunks, through an executor; results in input order.

    ``executor``: ``None`` -> a process pool (serial when there are fewer than
    :data:`SERIAL_THRESHOLD` items or one CPU); ``"serial"`` -> this process; any
    :class:`concurrent.futures.Executor` (thread or process pool, a Dask client's
    ``get_executor()``).  ``fn`` must be picklable for process and distributed executors (a
    top-level function or a :func:`functools.partial` of one).

        >>> sweep(abs, [-1, 2, -3], executor="serial")
        [1, 2, 3]
        >>> import concurrent.futures as cf
        >>> with cf.ThreadPoolExecutor(2) as ex:
        ...     sweep(abs, list(range(-5, 0)), executor=ex, chunksize=2)
        [5, 4, 3, 2, 1]
    """
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    own = None
    if executor is None:
        workers = min(os.cpu_count() or 1, 8)
        if n < SERIAL_THRESHOLD or workers < 2:
            executor = "serial"
        else:
            own = executor = cf.ProcessPoolExecutor(max_workers=workers)
    if isinstance(executor, str):
        if executor != "serial":
            raise LayoutError(f"executor must be an Executor, None or 'serial', got {executor!r}")
        out = []
        step = chunksize or max(1, n // 100)
        with Progress(n, desc, enabled=progress) as bar:
            for i in range(0, n, step):
                out.extend(_run_chunk(fn, items[i : i + step]))
                bar.update(min(step, n - i))
        return out
    if chunksize is None:
        chunksize = max(1, min(256, math.ceil(n / 32)))
    chunks = [items[i : i + chunksize] for i in range(0, n, chunksize)]
    results: list[Any] = [None] * len(chunks)
    try:
        futures = {executor.submit(_run_chunk, fn, c): i for i, c in enumerate(chunks)}
        with Progress(n, desc, enabled=progress) as bar:
            for fut in cf.as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                bar.update(len(chunks[i]))
    finally:
        if own is not None:
            own.shutdown()
    return [x for r in results for x in r]

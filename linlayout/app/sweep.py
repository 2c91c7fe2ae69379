"""Sweeps: run a function over many items on any :class:`concurrent.futures.Executor` (a process
pool, ``"serial"``, a Dask cluster's executor), in chunks, with a progress bar.

    >>> sweep(abs, [-1, 2, -3], executor="serial")
    [1, 2, 3]
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import gc
import itertools
import math
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from linlayout.checks import as_bool
from linlayout.errors import LayoutError

__all__ = ["Progress", "sweep", "sweep_iter", "gc_paused"]


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


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, restored after (a collection runs
    then if it was on).  A sweep allocates millions of small acyclic objects and keeps many of
    them: the collector's passes over the survivors cost a quarter of a sweep's time and free
    nothing (reference counting frees what dies).

        >>> with gc_paused():
        ...     gc.isenabled()
        False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run_chunk(fn: Callable[[Any], Any], chunk: Sequence[Any]) -> list[Any]:
    with gc_paused():
        return [fn(x) for x in chunk]


#: Sweeps with fewer items than this run serially when no executor is given.
SERIAL_THRESHOLD = 512

#: Chunks a sweep keeps in flight per worker of an executor (the rest are not yet made).
CHUNKS_IN_FLIGHT_PER_WORKER = 4


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    it = iter(items)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return
        yield chunk


def _length(items: Iterable[Any]) -> int | None:
    try:
        return len(items)  # type: ignore[arg-type]
    except TypeError:
        return None


def sweep_iter(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    executor: cf.Executor | str | None = None,
    chunksize: int | None = None,
    progress: bool = False,
    desc: str = "sweep",
) -> Iterator[Any]:
    """``fn(x) for x in items``, streamed in input order: the items are read a chunk at a time
    (a generator or a lazy sequence is never turned into a list) and, on an executor, only a few
    chunks per worker are in flight, so memory stays bounded however long the sweep.  Executors as
    for :func:`sweep`.

        >>> list(sweep_iter(abs, (x for x in [-1, 2, -3]), executor="serial"))
        [1, 2, 3]
    """
    progress = as_bool(progress, "sweep", "progress")
    n = _length(items)
    if n == 0:
        return
    own = None
    if executor is None:
        workers = min(os.cpu_count() or 1, 8)
        # a daemonic process (a multiprocessing pool's worker) may not start children: serial there
        if (n is not None and n < SERIAL_THRESHOLD) or workers < 2 or multiprocessing.current_process().daemon:
            executor = "serial"
        else:
            own = executor = cf.ProcessPoolExecutor(max_workers=workers)
    if isinstance(executor, str):
        if executor != "serial":
            raise LayoutError(f"executor must be an Executor, None or 'serial', got {executor!r:.80}")
        step = chunksize or max(1, (n or 10000) // 100)
        with Progress(n or 0, desc, enabled=progress) as bar:
            for chunk in _chunks(items, step):
                yield from _run_chunk(fn, chunk)
                bar.update(len(chunk))
        return
    if not callable(getattr(executor, "submit", None)):  # duck-typed: a Dask cluster's executor is no cf.Executor
        raise LayoutError(f"executor must be an Executor (with submit), None or 'serial', got {type(executor).__name__} {executor!r:.80}")
    if chunksize is None:
        chunksize = max(1, min(256, math.ceil(n / 32))) if n is not None else 256
    workers = getattr(executor, "_max_workers", None) or min(os.cpu_count() or 1, 8)
    limit = max(2, CHUNKS_IN_FLIGHT_PER_WORKER * workers)
    pending: collections.deque = collections.deque()
    chunks = _chunks(items, chunksize)
    try:
        with Progress(n or 0, desc, enabled=progress) as bar:
            for chunk in chunks:
                pending.append((executor.submit(_run_chunk, fn, chunk), len(chunk)))
                if len(pending) >= limit:
                    fut, k = pending.popleft()
                    yield from fut.result()
                    bar.update(k)
            while pending:
                fut, k = pending.popleft()
                yield from fut.result()
                bar.update(k)
    finally:
        for fut, _ in pending:
            fut.cancel()
        if own is not None:
            own.shutdown()


def sweep(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
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
    top-level function or a :func:`functools.partial` of one).  :func:`sweep_iter` streams the
    results instead of returning a list.

        >>> sweep(abs, [-1, 2, -3], executor="serial")
        [1, 2, 3]
        >>> import concurrent.futures as cf
        >>> with cf.ThreadPoolExecutor(2) as ex:
        ...     sweep(abs, list(range(-5, 0)), executor=ex, chunksize=2)
        [5, 4, 3, 2, 1]
    """
    return list(sweep_iter(fn, items, executor=executor, chunksize=chunksize, progress=progress, desc=desc))

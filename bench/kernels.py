"""Kernel benchmark: one query's product with every cached vector, by width and library.

    python -m bench.kernels [--rows 100000 10000] [--dimension 384] [--repeat 50]

The in-process retrieval path reads every cached vector once per query, so this product bounds
its latency. Times, on the same random unit vectors, numpy's float32 matrix-vector product
(BLAS), and simsimd's int8, float16 and float32 kernels (one thread, one query against every
row), plus numkong's int8 kernel when it is installed. Prints the median wall and CPU time
(every thread of the process) of each; never asserts.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import simsimd

from db.retrieval import quantized


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.kernels",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 10_000])
    parser.add_argument("--dimension", type=int, default=384)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    print(
        f"one query × every row, {args.dimension}-d, median of {args.repeat}; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(f"{'rows':>8} {'kernel':>22} | {'bytes read':>10} | {'wall':>8} {'cpu':>8}")
    for n in args.rows:
        for name, size, run in _kernels(n, args.dimension):
            wall, cpu = _timed(run, args.repeat)
            print(f"{n:>8,} {name:>22} | {size / 1e6:>7.1f} MB | {wall:>5.2f} ms {cpu:>5.2f} ms")


def _kernels(n: int, d: int) -> list[tuple[str, int, Callable[[], object]]]:
    rng = np.random.default_rng(n)
    vectors = rng.standard_normal((n, d)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = rng.standard_normal(d)
    unit /= np.linalg.norm(unit)
    query = unit.astype(np.float32)
    coded = quantized.code_rows(vectors, np.ones(n))
    coded_query = quantized.code_query(unit)
    halves, half_query = vectors.astype(np.float16), query.astype(np.float16)
    found: list[tuple[str, int, Callable[[], object]]] = [
        ("numpy float32 (BLAS)", vectors.nbytes, lambda: vectors @ query),
        ("simsimd float32", vectors.nbytes, lambda: _simsimd(vectors, query)),
        ("simsimd float16", halves.nbytes, lambda: _simsimd(halves, half_query)),
        ("simsimd int8", coded.codes.nbytes, lambda: _simsimd(coded.codes, coded_query.codes)),
    ]
    try:
        numkong = importlib.import_module("numkong")
    except ImportError:
        return found
    codes, probe = coded.codes, coded_query.codes[np.newaxis, :]
    found.append(("numkong int8", codes.nbytes, lambda: numkong.cdist(codes, probe, metric="dot")))
    return found


def _simsimd(rows: npt.NDArray[np.generic], query: npt.NDArray[np.generic]) -> object:
    return simsimd.cdist(rows, query[np.newaxis, :], metric="dot")


def _timed(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    run()
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        run()
        walls.append((time.perf_counter() - started) * 1000.0)
        cpus.append((time.process_time() - cpu_started) * 1000.0)
    return statistics.median(walls), statistics.median(cpus)


if __name__ == "__main__":
    main()

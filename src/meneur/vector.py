"""Numpy face readers: many rolls at once, read as :class:`~meneur.systems.base.FaceReader` does.

Faces come from a *reader*: :class:`RandomReader` draws them from a numpy generator as
the rule asks (simulation), :class:`ArrayReader` reads them from a fixed array in order,
per stream, exactly as :class:`~meneur.systems.base.FaceReader` does (so that the
conformance suite can feed the scalar ``resolve`` and the vectorised one the same faces).
A reader's ``take(rows, counts)`` returns a ``[max(counts), len(rows)]`` array of faces
(die-major: each die is one contiguous row, so that counting adds whole rows, the fast
way for numpy) where column ``i`` holds its ``counts[i]`` faces and 0 beyond them.

This is core: every system's ``vector.py`` (the numpy form of its checks and procedures)
reads faces through it; the lab only drives them. Import it only where numpy is wanted.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Int = NDArray[np.integer[Any]]
Bool = NDArray[np.bool_]


class ArrayReader:
    """Faces read in order from ``faces[runs, width]`` (one stream)."""

    def __init__(self, faces: NDArray[Any]) -> None:
        self.faces = np.asarray(faces)
        self.pos = np.zeros(self.faces.shape[0], dtype=np.int64)

    def take(self, rows: Int, counts: Int) -> NDArray[np.uint8]:
        k = int(counts.max(initial=0))
        if k == 0:
            return np.zeros((0, len(rows)), dtype=np.uint8)
        span = np.arange(k)
        index = self.pos[rows, None] + span
        unused = span >= counts[:, None]
        width = self.faces.shape[1]
        if bool((index[~unused] >= width).any()):
            raise ValueError("the faces array is narrower than the roll reads")
        out: NDArray[np.uint8] = self.faces[rows[:, None], np.minimum(index, width - 1)].astype(
            np.uint8
        )
        out[unused] = 0
        self.pos[rows] += counts
        return np.ascontiguousarray(out.T)


class RandomReader:
    """Faces drawn from a numpy generator, ``sides``-sided dice."""

    def __init__(self, rng: np.random.Generator, sides: int = 6) -> None:
        self.rng = rng
        self.sides = sides

    def take(self, rows: Int, counts: Int) -> NDArray[np.uint8]:
        k = int(counts.max(initial=0))
        out = self.rng.integers(1, self.sides + 1, size=(k, len(rows)), dtype=np.uint8)
        if k and int(counts.min()) != k:
            out[np.arange(k)[:, None] >= counts[None, :]] = 0
        return out


class Subset:
    """A reader seen through the runs still going: row ``i`` is run ``live[i]``.

    Whole fights and conflicts read round after round for the runs not yet over; with
    fixed faces (:class:`ArrayReader`) each run must keep reading its own row.
    """

    def __init__(self, reader: Any, live: Int) -> None:
        self.reader = reader
        self.live = live

    def take(self, rows: Int, counts: Int) -> NDArray[np.uint8]:
        faces: NDArray[np.uint8] = self.reader.take(self.live[rows], counts)
        return faces

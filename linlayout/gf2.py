"""Linear algebra over GF(2) on bit-packed Python integers.

A vector over GF(2) is a Python ``int``: bit ``k`` is coordinate ``k``.  A matrix is a sequence of
*column* vectors (the images of the unit inputs), which is how a :class:`~linlayout.LinearLayout`
stores its bases.  For the 5-60 bit matrices that real layouts have, Gaussian elimination on
packed integers is much faster than a general GF(2) array library.

The central tool is :class:`SpanBasis`, an incremental echelon basis that remembers, for every
vector it holds, which of the inserted columns it is a combination of.  Inserting the columns of a
matrix in order and keeping the ones that are independent of the earlier ones yields the *pivot
columns* of the matrix's reduced row echelon form (RREF) in the column order, which is what Triton's
``f2reduce``-based code computes.  Expressing a vector in terms of the pivot columns, with the free
(non-pivot) columns set to zero, is the solution that Triton's least-squares solve reads off the
RREF.

    >>> cols = [0b01, 0b10, 0b11]          # the third column is the sum of the first two
    >>> pivot_columns(cols)
    [0, 1]
    >>> rank(cols)
    2
    >>> solve(cols, 0b11)                  # 0b11 = col0 ^ col1, free column 2 set to zero
    3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "SpanBasis",
    "rank",
    "pivot_columns",
    "solve",
    "kernel_vector",
    "transpose",
    "in_span",
    "reduced_basis",
    "reduce_mod",
    "rref_lowbit",
    "nullspace_basis",
    "intersection_basis",
    "intersection_dim",
    "complement_units",
]


class SpanBasis:
    """An echelon basis of a subspace of GF(2)^n, built one vector at a time.

    Each stored vector has a distinct leading (highest) bit.  Alongside it, a *combination mask*
    records which inserted vectors (by insertion index) XOR to it, so that any vector in the span
    can be written as a combination of the inserted ones.

        >>> b = SpanBasis()
        >>> b.insert(0b110), b.insert(0b011), b.insert(0b101)
        (True, True, False)
        >>> b.express(0b101)           # 0b101 = v0 ^ v1
        3
        >>> b.express(0b1000) is None  # not in the span
        True
    """

    __slots__ = ("_lead", "_count")

    def __init__(self) -> None:
        # leading bit -> (reduced vector, combination mask over inserted indices)
        self._lead: dict[int, tuple[int, int]] = {}
        self._count = 0

    @property
    def rank(self) -> int:
        """The dimension of the span."""
        return len(self._lead)

    def reduce(self, v: int) -> tuple[int, int]:
        """Reduce ``v`` against the basis: returns ``(remainder, combination)``.

        ``v == remainder ^ XOR(inserted[i] for i in combination)``; the remainder is zero exactly
        when ``v`` is in the span.
        """
        lead = self._lead
        c = 0
        while v:
            h = v.bit_length() - 1
            entry = lead.get(h)
            if entry is None:
                break
            v ^= entry[0]
            c ^= entry[1]
        return v, c

    def insert(self, v: int) -> bool:
        """Insert the next vector; returns whether it was independent of the earlier ones."""
        idx = self._count
        self._count += 1
        rem, c = self.reduce(v)
        if rem == 0:
            return False
        # The remainder may still have lower bits that other entries lead on; that is fine: only
        # the leading bits must be distinct for reduce() to terminate and be exact.
        self._lead[rem.bit_length() - 1] = (rem, c ^ (1 << idx))
        return True

    def express(self, v: int) -> int | None:
        """The combination (mask over insertion indices) that XORs to ``v``, or None if outside."""
        rem, c = self.reduce(v)
        return c if rem == 0 else None

    def contains(self, v: int) -> bool:
        """Whether ``v`` is in the span."""
        return self.reduce(v)[0] == 0


def rank(columns: Iterable[int]) -> int:
    """The rank of the matrix whose columns are ``columns``.

        >>> rank([1, 2, 3, 4])
        3
    """
    lead: dict[int, int] = {}  # leading bit -> vector (no combination masks: only the count)
    for v in columns:
        while v:
            h = v.bit_length() - 1
            w = lead.get(h)
            if w is None:
                lead[h] = v
                break
            v ^= w
    return len(lead)


def pivot_columns(columns: Sequence[int]) -> list[int]:
    """Indices of the columns independent of all earlier columns (the RREF pivot columns).

        >>> pivot_columns([0, 1, 1, 2])
        [1, 3]
    """
    basis = SpanBasis()
    return [i for i, v in enumerate(columns) if basis.insert(v)]


def solve(columns: Sequence[int], target: int) -> int | None:
    """Solve ``XOR(columns[i] for i in x) == target`` for the bit mask ``x``.

    Only pivot columns (see :func:`pivot_columns`) are used; free columns are zero.  This is the
    solution Triton reads off the reduced row echelon form.  Returns None when ``target`` is not in
    the column span.

        >>> solve([1, 1, 2], 3)    # column 1 duplicates column 0 and stays unused
        5
    """
    basis = SpanBasis()
    for v in columns:
        basis.insert(v)
    # Combination masks index the insertion order, which is the column order, and only ever use
    # independent (pivot) columns.
    return basis.express(target)


def kernel_vector(columns: Sequence[int]) -> int | None:
    """A nonzero input mask ``x`` with ``XOR(columns[i] for i in x) == 0``, or None if injective.

    The returned mask has its highest bit at the first dependent column.

        >>> kernel_vector([1, 2, 3])
        7
        >>> kernel_vector([1, 2]) is None
        True
    """
    basis = SpanBasis()
    for i, v in enumerate(columns):
        c = basis.express(v)
        if c is not None:
            return c | (1 << i)
        basis.insert(v)
    return None


def transpose(vectors: Sequence[int], width: int) -> list[int]:
    """Transpose a bit matrix: ``vectors[i]`` bit ``j`` becomes ``result[j]`` bit ``i``.

        >>> transpose([0b01, 0b11], 2)
        [3, 2]
    """
    out = [0] * width
    for i, v in enumerate(vectors):
        while v:
            low = v & -v
            j = low.bit_length() - 1
            if j < width:
                out[j] |= 1 << i
            v ^= low
    return out


def in_span(vectors: Iterable[int], v: int) -> bool:
    """Whether ``v`` lies in the span of ``vectors``.

        >>> in_span([1, 2], 3), in_span([1, 2], 4)
        (True, False)
    """
    basis = SpanBasis()
    for w in vectors:
        basis.insert(w)
    return basis.contains(v)


def reduced_basis(vectors: Iterable[int]) -> list[int]:
    """The reduced echelon basis of the span, highest leading bit first: unique for the span, so
    two sets of vectors span the same space exactly when their reduced bases are equal.

        >>> reduced_basis([3, 1]), reduced_basis([2, 3])
        ([2, 1], [2, 1])
    """
    basis: list[int] = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis = [min(b, b ^ v) for b in basis]
            basis.append(v)
            basis.sort(reverse=True)
    return basis


def reduce_mod(v: int, basis: Sequence[int]) -> int:
    """``v`` reduced modulo the span of a :func:`reduced_basis` (a canonical coset representative).

        >>> reduce_mod(3, reduced_basis([1])), reduce_mod(3, reduced_basis([3]))
        (2, 0)
    """
    for b in basis:
        v = min(v, v ^ b)
    return v


def rref_lowbit(vectors: Sequence[int], dim: int) -> list[int]:
    """Reduced row echelon form of ``vectors`` (rows), pivots at the lowest set bit, column 0 first.

        >>> rref_lowbit([0b11, 0b10], 2)
        [1, 2]
    """
    rows = [v for v in vectors]
    r = 0
    for col in range(dim):
        bit = 1 << col
        piv = next((i for i in range(r, len(rows)) if rows[i] & bit), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        for i in range(len(rows)):
            if i != r and rows[i] & bit:
                rows[i] ^= rows[r]
        r += 1
    return [v for v in rows[:r] if v]


def nullspace_basis(vectors: Sequence[int], dim: int) -> list[int]:
    """A basis of ``{x : <x, v> = 0 for every v}`` (one vector per free column, in column order).

        >>> nullspace_basis([0b011], 3)
        [3, 4]
    """
    rows = rref_lowbit(vectors, dim)
    pivots = {(r & -r).bit_length() - 1: r for r in rows}
    out = []
    for free in range(dim):
        if free in pivots:
            continue
        v = 1 << free
        for p, row in pivots.items():
            if row >> free & 1:
                v ^= 1 << p
        out.append(v)
    return out


def intersection_basis(b1: Sequence[int], b2: Sequence[int], dim: int) -> list[int]:
    """A basis of span(b1) ∩ span(b2); for unit vectors, the common ones in ``b1``'s order.

        >>> intersection_basis([4, 1, 2], [2, 4], 3)
        [4, 2]
    """
    if all(v > 0 and v & (v - 1) == 0 for v in list(b1) + list(b2)):
        s2 = set(b2)
        return [v for v in b1 if v in s2]
    joint = nullspace_basis(b1, dim) + nullspace_basis(b2, dim)
    return nullspace_basis(joint, dim)


def intersection_dim(b1: Sequence[int], b2: Sequence[int]) -> int:
    """The dimension of span(b1) ∩ span(b2).

        >>> intersection_dim([1, 2], [3, 4])
        1
    """
    return rank(b1) + rank(b2) - rank(list(b1) + list(b2))


def complement_units(basis: Sequence[int], dim: int) -> list[int]:
    """Unit vectors (the non-pivot columns of the RREF) that complete ``basis`` to all of GF(2)^dim.

        >>> complement_units([0b011], 3)
        [2, 4]
    """
    pivots = {(r & -r).bit_length() - 1 for r in rref_lowbit(basis, dim)}
    return [1 << i for i in range(dim) if i not in pivots]


def unit_complement(basis: Iterable[int], dim: int) -> list[int]:
    """:func:`complement_units` by one pass of elimination on the lowest set bits (no reduced
    form): the pivots of the lowest-bit echelon form are the lowest bits of the span's vectors, the
    same set for any echelon basis of the span, so the answer is the same.

        >>> unit_complement([0b011], 3), unit_complement([0b110, 0b011], 3)
        ([2, 4], [4])
    """
    lead: dict[int, int] = {}  # lowest bit -> vector
    for v in basis:
        while v:
            low = v & -v
            w = lead.get(low)
            if w is None:
                lead[low] = v
                break
            v ^= w
    return [1 << i for i in range(dim) if (1 << i) not in lead]


def unit_images(vectors: Sequence[int]) -> list[int] | None:
    """For linearly independent ``vectors`` spanning GF(2)^n (``n == len(vectors)``, every
    vector below ``2**n``): the inverse matrix as the image of each unit vector, i.e.
    ``out[i]`` is the mask of the vectors that XOR to ``1 << i``; None when they are not such a
    basis.  Any vector ``v`` is then written over them as the XOR of ``out[i]`` for the bits ``i``
    of ``v``.

        >>> unit_images([0b01, 0b11])       # 1 = v0, 2 = v0 ^ v1
        [1, 3]
        >>> unit_images([0b01, 0b01]) is None
        True
    """
    n = len(vectors)
    # the unit vectors among them (most bases of shared layouts: a permutation of the bits and a
    # few XOR columns) are their own bits' images; the others, with those bits masked off, must
    # be a basis of the remaining bits (Gauss-Jordan on (vector, combination) pairs, pivot: the
    # lowest bit), and each such bit's image is its row's combination plus the unit vectors
    # whose bits were masked off
    out = [0] * n
    taken = 0  # the bits of the unit vectors
    others = []
    for k, v in enumerate(vectors):
        if v >> n or not v:
            return None
        if v & (v - 1):
            others.append(k)
        elif v & taken:
            return None
        else:
            taken |= v
            out[v.bit_length() - 1] = 1 << k
    rows: list[list[int]] = []
    for k in others:
        v = vectors[k]
        c = 1 << k
        m = v & taken
        v ^= m
        while m:
            low = m & -m
            c ^= out[low.bit_length() - 1]
            m ^= low
        for r in rows:
            if v & r[2]:
                v ^= r[0]
                c ^= r[1]
        if not v:
            return None
        low = v & -v
        for r in rows:
            if r[0] & low:
                r[0] ^= v
                r[1] ^= c
        rows.append([v, c, low])
    for v, c, low in rows:
        out[low.bit_length() - 1] = c
    return out


def meet_dim(b1: Iterable[int], b2: Sequence[int]) -> int:
    """:func:`intersection_dim` with two eliminations instead of three: ``dim(span(b2)) -
    (rank(b1 + b2) - rank(b1))``, the second term by inserting ``b2`` into ``b1``'s echelon form.

        >>> meet_dim([1, 2], [3, 4]), meet_dim([], [1]), meet_dim([6, 1], [7, 6])
        (1, 0, 2)
    """
    # echelon_insert inlined: the planner counts bank conflicts this way for every candidate
    lead: dict[int, int] = {}  # leading bit length -> vector
    get = lead.get
    for v in b1:
        while v:
            n = v.bit_length()
            w = get(n)
            if w is None:
                lead[n] = v
                break
            v ^= w
    own: dict[int, int] = {}  # b2's own echelon form
    own_get = own.get
    new = 0  # vectors of b2 independent of b1 (and of the b2 vectors before them)
    for v in b2:
        u = v
        while u:
            n = u.bit_length()
            w = get(n)
            if w is None:
                lead[n] = u
                new += 1
                break
            u ^= w
        while v:
            n = v.bit_length()
            w = own_get(n)
            if w is None:
                own[n] = v
                break
            v ^= w
    return len(own) - new


def combine(columns: Sequence[int], mask: int) -> int:
    """The XOR of the ``columns`` selected by the bits of ``mask`` (column ``i`` by bit ``i``): a
    linear map's image of ``mask`` given its columns.

        >>> combine([6, 1, 4], 0b101), combine([6, 1, 4], 0)
        (2, 0)
    """
    out = 0
    i = 0
    while mask:
        if mask & 1:
            out ^= columns[i]
        mask >>= 1
        i += 1
    return out


def images_over_units(units: Mapping[int, int], vectors: Sequence[int]) -> list[int]:
    """The images of ``vectors`` under the linear map whose images of 0 and of each unit vector
    ``1 << k`` are ``units[1 << k]`` (keyed by the unit vector): one look-up for a unit vector
    (most bases of real layouts), else the XOR of its bits' images; a bit without an image is a
    ``KeyError``.

        >>> images_over_units({0: 0, 1: 6, 2: 1, 4: 4}, [2, 3, 7])
        [1, 7, 3]
    """
    out: list = list(map(units.get, vectors))  # unit vectors and 0: one look-up each
    if None in out:
        for i, x in enumerate(out):
            if x is None:
                v = vectors[i]
                x = 0
                while v:
                    low = v & -v
                    x ^= units[low]
                    v ^= low
                out[i] = x
    return out


def masked_meet_dim(vectors: Iterable[int], mask: int, lead: dict[int, int] | None = None) -> int:
    """``rank(vectors) - (rank(S + [v & mask for v in vectors]) - rank(S))``, with ``S`` the span
    kept as the echelon dict ``lead`` (leading bit length -> vector; not modified; none: ``S``
    empty).  With ``mask`` clearing the unit vectors of a span ``U`` and ``lead`` the rest of it
    reduced the same way, this is ``dim(span(vectors) ∩ span(U + S))``: the bank-conflict count
    of an access tile against a shared layout's segment bits (both eliminations in one pass).

        >>> masked_meet_dim([1, 2, 4], ~3), masked_meet_dim([3, 4], ~0, {3: 4}), masked_meet_dim([5, 6], ~4, {2: 3})
        (2, 1, 1)
    """
    meet = 0
    own: dict[int, int] = {}
    joint = dict(lead) if lead else {}
    for t in vectors:
        v = t
        while v:
            n = v.bit_length()
            w = own.get(n)
            if w is None:
                own[n] = v
                meet += 1
                break
            v ^= w
        v = t & mask
        while v:
            n = v.bit_length()
            w = joint.get(n)
            if w is None:
                joint[n] = v
                meet -= 1
                break
            v ^= w
    return meet


def echelon_insert(lead: dict[int, int], v: int) -> bool:
    """Add ``v`` to the span kept as an echelon dict (leading bit length -> vector); True when it
    was independent of the span (the dict grew).

        >>> lead = {}
        >>> echelon_insert(lead, 6), echelon_insert(lead, 3), echelon_insert(lead, 5), lead
        (True, True, False, {3: 6, 2: 3})
    """
    while v:
        n = v.bit_length()
        w = lead.get(n)
        if w is None:
            lead[n] = v
            return True
        v ^= w
    return False

"""A minimal stand-in for converters.gluon.from_dict, used only when that converter is missing.

Covers BlockedLayout and DistributedLinearLayout (Triton's construction: identity over registers,
lanes and warps in ``order``, larger-than-tensor bases zeroed, smaller tiles repeated in
registers).  Other kinds return None so a test can skip them.
"""

from __future__ import annotations

from linlayout import LinearLayout


def _fit(bases: dict[str, list[list[int]]], shape: list[int]) -> dict[str, list[list[int]]]:
    rank = len(shape)
    out = {k: [list(b) for b in v] for k, v in bases.items()}
    for d in range(rank):
        for k in out:
            for b in out[k]:
                if b[d] >= shape[d]:
                    b[d] = 0
    return out


def from_dict(d: dict, shape: list[int]) -> LinearLayout | None:
    kind = d["kind"]
    rank = len(shape)
    outs = [(f"dim{i}", s) for i, s in enumerate(shape)]
    if kind == "DistributedLinearLayout":
        return LinearLayout(
            {"register": d["reg_bases"], "lane": d["lane_bases"], "warp": d["warp_bases"], "block": d["block_bases"]}, outs
        )
    if kind != "BlockedLayout":
        return None
    bases: dict[str, list[list[int]]] = {"register": [], "lane": [], "warp": [], "block": []}
    covered = [1] * rank
    for hw, sizes in (("register", d["size_per_thread"]), ("lane", d["threads_per_warp"]), ("warp", d["warps_per_cta"])):
        for dim in d["order"]:
            n = sizes[dim]
            k = 1
            while k < n:
                v = [0] * rank
                v[dim] = covered[dim] * k
                bases[hw].append(v)
                k *= 2
            covered[dim] *= n
    bases = _fit(bases, shape)
    bases["register"] = [b for b in bases["register"] if any(b)]  # Triton drops zeroed registers
    for dim in d["order"]:
        while covered[dim] < shape[dim]:
            v = [0] * rank
            v[dim] = covered[dim]
            bases["register"].append(v)
            covered[dim] *= 2
    return LinearLayout(bases, outs)

# Inputs of the Tilecraft suite task `cosine_embedding_loss`: x1, x2 uniform in their value range, target -1 or
# 1 (the labels the loss is defined for; a uniform draw in [-1, 1] would give neither).
import numpy as np
import torch

_DT = {'float16': torch.float16, 'bfloat16': torch.bfloat16, 'float32': torch.float32}


def _bounds(r, default):
    try:
        lo, hi = float(r[0]), float(r[1])
        return (lo, hi) if np.isfinite(lo) and np.isfinite(hi) else default
    except (TypeError, ValueError, IndexError):
        return default


def make_inputs(shapes, dtypes, value_ranges, attrs, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(2):
        lo, hi = _bounds(value_ranges[i] if value_ranges and len(value_ranges) > i else None, (-1.0, 1.0))
        v = rng.uniform(lo, hi, size=shapes[i]) if lo < hi else np.full(shapes[i], lo)
        out.append(torch.from_numpy(v).to(_DT.get(str(dtypes[i]), torch.float32)))
    y = np.where(rng.integers(0, 2, size=shapes[2]) == 1, 1.0, -1.0)
    out.append(torch.from_numpy(y).to(_DT.get(str(dtypes[2]), torch.float32)))
    return out

# Inputs of the Tilecraft suite task `hinge_embedding_loss`: x uniform in its value range, target -1 or 1 (the
# labels the loss is defined for; a uniform draw in [-1, 1] would give neither).
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
    lo, hi = _bounds(value_ranges[0] if value_ranges else None, (-2.0, 2.0))
    x = rng.uniform(lo, hi, size=shapes[0]) if lo < hi else np.full(shapes[0], lo)
    y = np.where(rng.integers(0, 2, size=shapes[1]) == 1, 1.0, -1.0)
    dx = _DT.get(str(dtypes[0]), torch.float32)
    dy = _DT.get(str(dtypes[1]), dx)
    return [torch.from_numpy(x).to(dx), torch.from_numpy(y).to(dy)]

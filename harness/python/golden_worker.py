"""Tilecraft's golden worker: one long-lived Python process that runs CANN Bench goldens (docs/goldens.md).

Protocol: one JSON object per line on stdin, one reply per line on stdout, in order. Requests:
  {"op": "ping"}
  {"op": "golden", "task_dir", "functions": [names to try], "inputs": [path | null | [paths]],
   "attrs": {...}, "outputs": [{"name", "dtype"}], "out_dir"}
  {"op": "inputs", "task_dir", "case": {"shapes", "dtypes", "value_ranges", "attrs"}, "seed",
   "names": [proto input names], "dtypes": [per input], "out_dir", "base": [path | null | [paths]] or absent}
Replies: {"ok": true, ...} or {"ok": false, "error": "..."}. A Python error is an error reply, never an exit.
Whatever a golden prints goes to stderr: stdout carries the protocol only.
"""
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback

import numpy as np

_PROTOCOL = None  # the real stdout, set in main() before fd 1 is pointed at stderr

_DTYPES = None  # name -> torch dtype, built after torch is imported


def _torch():
    import torch  # noqa: imported late so a missing torch is a clean error reply from ping
    return torch


def _dtype_table():
    global _DTYPES
    if _DTYPES is None:
        torch = _torch()
        _DTYPES = {
            "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
            "float64": torch.float64, "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16,
            "int32": torch.int32, "int64": torch.int64, "bool": torch.bool,
        }
    return _DTYPES


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


# ---- .npy ------------------------------------------------------------------------------------------------

def _write_npy(path, array, descr=None):
    """np.save, except that bf16 (raw uint16 bits) is written with descr '<V2' (interp/npy.h)."""
    if descr is None:
        np.save(path, np.ascontiguousarray(array), allow_pickle=False)
        return
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, repr(tuple(array.shape)))
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00")
        f.write(len(header).to_bytes(2, "little"))
        f.write(header.encode("latin1"))
        f.write(np.ascontiguousarray(array).astype("<u2").tobytes())


def _read_npy(path):
    """A tensor from a .npy file; '<V2'/'|V2' data is bf16. Floating tensors come back as they are stored."""
    torch = _torch()
    array = np.load(path, allow_pickle=False)
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        bits = np.ascontiguousarray(array).view(np.int16)
        return torch.from_numpy(bits.copy()).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(array).copy())


def _save_tensor(path, tensor, dtype_name):
    """Casts `tensor` to dtype_name and writes it; bf16 goes through float32 (1.13 CPU casts)."""
    torch = _torch()
    target = _dtype_table().get(dtype_name)
    if target is None:
        raise ValueError("unsupported output dtype '%s'" % dtype_name)
    t = tensor.detach().cpu()
    if t.is_complex():
        raise ValueError("complex output (%s) cannot be stored" % _dtype_name(t.dtype))
    if target == torch.bfloat16:
        b = t.to(torch.float32).to(torch.bfloat16).contiguous()
        _write_npy(path, b.view(torch.int16).numpy().view(np.uint16), "<V2")
        return
    if t.dtype == torch.bfloat16:
        t = t.to(torch.float32)
    _write_npy(path, t.to(target).contiguous().numpy())


# ---- goldens -----------------------------------------------------------------------------------------------

_MODULES = {}  # golden.py path -> (mtime, size, module)


def _load_module(path, tag):
    st = os.stat(path)
    key = (st.st_mtime_ns, st.st_size)
    cached = _MODULES.get(path)
    if cached and cached[0] == key:
        return cached[1]
    name = "tilecraft_task_%d_%s" % (len(_MODULES), tag)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)  # goldens may import helpers that sit beside them
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    _MODULES[path] = (key, module)
    return module


def _golden_module(task_dir):
    return _load_module(os.path.join(task_dir, "golden.py"), "golden")


def _find_function(module, names):
    for n in names:
        f = getattr(module, n, None)
        if callable(f):
            return f
    raise AttributeError("golden.py defines none of: %s" % ", ".join(names))


def _is_tensor_param(param):
    return param.annotation is not inspect.Parameter.empty and "Tensor" in str(param.annotation)


def _call_args(func, tensors, attrs):
    """Binds proto-order inputs and the case's attributes to `func` as CANN Bench's runner does: inputs go to
    the Tensor-annotated parameters in signature order (to the non-attribute parameters when nothing is
    annotated), attributes by keyword to the parameters that exist (all of them with **kwargs)."""
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    takes_kwargs = any(p.kind == p.VAR_KEYWORD for p in params)
    named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY, p.POSITIONAL_ONLY)]
    slots = [p for p in named if _is_tensor_param(p)]
    if not slots:
        slots = [p for p in named if p.name not in attrs]
    kwargs = {}
    for p, t in zip(slots, tensors):
        kwargs[p.name] = t
    extra = list(tensors[len(slots):])
    for k, v in attrs.items():
        if k in kwargs:
            continue
        if takes_kwargs or k in sig.parameters:
            kwargs[k] = _convert_attr(v)
    positional = []
    if extra:
        if not any(p.kind == p.VAR_POSITIONAL for p in params):
            raise TypeError("golden takes %d tensor parameters, the case has %d inputs" % (len(slots), len(tensors)))
        positional = extra
    return positional, kwargs


def _convert_attr(v):
    if isinstance(v, str) and v in ("inf", "-inf", "nan"):
        return float(v)
    return v


def _to_compute(t):
    """Floating inputs go to float64 (CANN Bench's fp64_cpu golden precision); others stay."""
    torch = _torch()
    if t is None:
        return None
    if isinstance(t, list):
        return [_to_compute(x) for x in t]
    if t.is_floating_point():
        return t.to(torch.float64)
    return t


def _load_inputs(specs):
    out = []
    for s in specs:
        if s is None:
            out.append(None)
        elif isinstance(s, list):
            out.append([_read_npy(p) for p in s])
        else:
            out.append(_read_npy(s))
    return out


def _flatten_outputs(result):
    torch = _torch()
    if isinstance(result, torch.Tensor) or result is None:
        return [result]
    if isinstance(result, (list, tuple)):
        return list(result)
    if isinstance(result, dict):
        return list(result.values())
    if isinstance(result, (bool, int, float)):
        return [torch.tensor(result)]
    raise TypeError("golden returned %s, not tensors" % type(result).__name__)


def _make_capture():
    """A TorchDispatchMode that records every ATen op with its tensors' shapes and dtypes."""
    torch = _torch()
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten

    class Capture(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            result = func(*args, **kwargs)
            try:
                ins = [a for a in tree_flatten((args, kwargs))[0] if isinstance(a, torch.Tensor)]
                outs = [a for a in tree_flatten(result)[0] if isinstance(a, torch.Tensor)]
                schema = func._schema
                name = schema.name + ("." + schema.overload_name if schema.overload_name else "")
                self.ops.append({
                    "name": name,
                    "in_shapes": [list(a.shape) for a in ins], "in_dtypes": [_dtype_name(a.dtype) for a in ins],
                    "out_shapes": [list(a.shape) for a in outs], "out_dtypes": [_dtype_name(a.dtype) for a in outs],
                })
            except Exception:  # recording must never change what the golden computes
                pass
            return result

    return Capture()


def _golden(req):
    torch = _torch()
    module = _golden_module(req["task_dir"])
    func = _find_function(module, req["functions"])
    inputs = [_to_compute(t) for t in _load_inputs(req["inputs"])]
    positional, kwargs = _call_args(func, inputs, req.get("attrs") or {})
    capture = _make_capture()
    start = time.perf_counter()
    with torch.no_grad():
        with capture:
            result = func(*positional, **kwargs)
    seconds = time.perf_counter() - start
    values = _flatten_outputs(result)
    decls = req["outputs"]
    written = []
    os.makedirs(req["out_dir"], exist_ok=True)
    for i, v in enumerate(values):
        decl = decls[i] if i < len(decls) else {"name": "output%d" % i, "dtype": None}
        if v is None:
            written.append(None)
            continue
        items = v if isinstance(v, (list, tuple)) else [v]
        paths = []
        for k, t in enumerate(items):
            if not isinstance(t, torch.Tensor):
                t = torch.tensor(t)
            dtype = decl["dtype"] or _dtype_name(t.dtype)
            if dtype == "float64":
                dtype = "float32"
            suffix = ("_%d" % k) if isinstance(v, (list, tuple)) else ""
            path = os.path.join(req["out_dir"], "out%d%s.npy" % (i, suffix))
            _save_tensor(path, t, dtype)
            paths.append(path)
        written.append(paths if isinstance(v, (list, tuple)) else paths[0])
    return {"outputs": written, "ops": capture.ops, "seconds": seconds}


def _uniform(rng, shape, dtype_name, value_range):
    """Base inputs when the C++ side supplied none: uniform in value_range (integers inclusive)."""
    torch = _torch()
    lo, hi = (value_range if value_range else (-1.0, 1.0))
    lo, hi = float(lo), float(hi)
    if dtype_name == "bool":
        return torch.from_numpy(rng.integers(0, 2, size=shape).astype(np.bool_))
    if dtype_name in ("int8", "uint8", "int16", "int32", "int64"):
        a = rng.integers(int(np.ceil(lo)), int(np.floor(hi)) + 1, size=shape)
        return torch.from_numpy(a.astype(dtype_name))
    if not np.isfinite(lo) or not np.isfinite(hi):
        lo, hi = -1.0, 1.0
    a = rng.uniform(lo, hi, size=shape)
    return torch.from_numpy(a).to(_dtype_table()[dtype_name])


def _inputs(req):
    """inputs.py's make_inputs when the task has one; else golden.py's get_input hook (CANN Bench) over the
    base inputs (given, or drawn here with numpy). Writes the results in proto order."""
    torch = _torch()
    task_dir = req["task_dir"]
    case = req["case"]
    names = req["names"]
    dtypes = req["dtypes"]
    seed = int(req["seed"])
    inputs_py = os.path.join(task_dir, "inputs.py")
    hook = None
    if os.path.exists(inputs_py):
        module = _load_module(inputs_py, "inputs")
        make = getattr(module, "make_inputs", None)
        if not callable(make):
            raise AttributeError("inputs.py defines no make_inputs(shapes, dtypes, value_ranges, attrs, seed)")
        values = make(case["shapes"], case["dtypes"], case["value_ranges"], case.get("attrs") or {}, seed)
        hook = "inputs.py"
    else:
        base = req.get("base")
        if base is not None:
            values = _load_inputs(base)
        else:
            rng = np.random.default_rng(seed)
            values = []
            for shape, dt, vr in zip(case["shapes"], case["dtypes"], case["value_ranges"]):
                if shape is None:
                    values.append(None)
                elif shape and isinstance(shape[0], list):
                    values.append([_uniform(rng, s, dt, vr) for s in shape])
                else:
                    values.append(_uniform(rng, shape, dt, vr))
        module = _golden_module(task_dir)
        get_input = getattr(module, "get_input", None)
        if callable(get_input):
            params = dict(zip(names, values))
            for k, v in (case.get("attrs") or {}).items():
                params.setdefault(k, v)
            params.setdefault("skip2_exist", (case.get("attrs") or {}).get("skip2_exist", True))
            torch.manual_seed(seed)
            values = list(get_input(**params))
            hook = "get_input"
    os.makedirs(req["out_dir"], exist_ok=True)
    written = []
    for i, v in enumerate(values):
        dt = dtypes[i] if i < len(dtypes) else None
        if v is None:
            written.append(None)
            continue
        items = v if isinstance(v, (list, tuple)) else [v]
        paths = []
        for k, t in enumerate(items):
            t = t if isinstance(t, torch.Tensor) else torch.tensor(t)
            path = os.path.join(req["out_dir"], "in%d_%d.npy" % (i, k))
            _save_tensor(path, t, dt or _dtype_name(t.dtype))
            paths.append(path)
        written.append(paths if isinstance(v, (list, tuple)) else paths[0])
    return {"inputs": written, "hook": hook}


def _ping(_req):
    torch = _torch()
    import torch_compat
    return {"torch": torch.__version__, "python": sys.version.split()[0], "compat": torch_compat.ADDED,
            "pid": os.getpid()}


_HANDLERS = {"ping": _ping, "golden": _golden, "inputs": _inputs}


def _error_text(exc):
    """The exception's last lines: the innermost frames and the message."""
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = [l for l in "".join(lines).rstrip().splitlines() if l.strip().strip("^~")]
    return "\n".join(text[-8:])


def _serve():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            handler = _HANDLERS.get(req.get("op"))
            if handler is None:
                raise ValueError("unknown request op '%s'" % req.get("op"))
            reply = handler(req)
            reply["ok"] = True
        except BaseException as exc:  # noqa: a golden's SystemExit or KeyboardInterrupt is its error too
            reply = {"ok": False, "error": _error_text(exc)}
        _PROTOCOL.write(json.dumps(reply) + "\n")
        _PROTOCOL.flush()


def main():
    global _PROTOCOL
    # The protocol keeps the real stdout; fd 1 (print, C extensions) now goes to stderr.
    _PROTOCOL = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import torch_compat
        torch_compat.install()
    except BaseException as exc:  # no torch: every request reports it
        _PROTOCOL.write(json.dumps({"ok": False, "error": _error_text(exc), "fatal": True}) + "\n")
        _PROTOCOL.flush()
        return 3
    _PROTOCOL.write(json.dumps({"ok": True, "ready": True}) + "\n")
    _PROTOCOL.flush()
    _serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())

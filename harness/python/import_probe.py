"""What `tilecraft import` learns from an upstream task by running its Python: the shapes, dtypes and value ranges
of the inputs (get_inputs / get_input_groups / NPUKernelBench's prepare_inputs), the model's parameters, the
outputs, and which reduced-precision variants the model accepts. Run only inside the sandbox (runner/sandbox.h):
it executes a stranger's file.

    python3 -B import_probe.py REQUEST.json

REQUEST: {"kind": "kernelbench" | "npukernelbench", "items": [{"id", "file"} | {"id", "dir"}], "out": PATH,
"timeout": seconds per item, "budget": elements}. For every item, OUT gets a line {"id", "start": true} before
and one result line after, so a caller whose probe died knows which item killed it.

Tensors are made on the meta device (factory functions patched), so a 4096 x 393216 input costs nothing; a
tensor's value range is known when a factory or an nn.init function made it, else from a real run of the same
code when everything fits in `budget` elements, else it is left to the default.
"""
import ast
import csv
import inspect
import json
import math
import os
import signal
import sys
import types

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_compat  # noqa: E402  what the golden worker adds to torch 1.13, so the probe sees the same torch

torch_compat.install()


def _pooled(size, k, s, p, d, ceil):
    # PyTorch's pooling output size (pooling_output_shape in aten/src/ATen/native/Pool.h).
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    if ceil and (out - 1) * s >= size + p:
        out -= 1
    return out


def _meta_max_pool3d_with_indices(x, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    def three(v, default):
        v = list(v) if v else list(default)
        return v * 3 if len(v) == 1 else v

    k = three(kernel_size, kernel_size)
    s, p, d = three(stride, k), three(padding, (0,)), three(dilation, (1,))
    shape = list(x.shape[:-3]) + [_pooled(x.shape[-3 + i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(3)]
    return x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)


def _add_meta_kernels():
    """Shape functions torch 1.13 lacks on the meta device for ops KernelBench uses at sizes too large to run."""
    try:
        lib = torch.library.Library("aten", "IMPL", "Meta")
        lib.impl("max_pool3d_with_indices", _meta_max_pool3d_with_indices)
        return lib
    except (AttributeError, RuntimeError):
        return None


_META_KERNELS = _add_meta_kernels()  # kept: the registration lives as long as the library object
_META = torch.device("meta")
_FLOATS = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64"}
_NAMES = dict(_FLOATS)
_NAMES.update({torch.int8: "int8", torch.uint8: "uint8", torch.int16: "int16", torch.int32: "int32",
               torch.int64: "int64", torch.bool: "bool", torch.complex64: "complex64", torch.complex128: "complex128"})
_NORMAL_SPAN = 3.0  # a normal draw is taken as mean +- 3 std, CANN Bench's reading of {mean, std}


class ImportFailure(Exception):
    """A reason the task cannot be imported, in words for the report. `meta`: it may be the meta device's
    fault, so the task is probed again with real tensors."""

    def __init__(self, message, meta=False):
        super().__init__(message)
        self.meta = meta


class _Timeout(BaseException):
    """Not an Exception, so the handlers around the upstream calls let it through."""


def _dtype_name(dtype):
    return _NAMES.get(dtype, str(dtype).replace("torch.", ""))


_SAME_RANGE = {"float", "half", "double", "bfloat16", "to", "type", "contiguous", "clone", "view", "view_as", "reshape",
               "reshape_as", "permute", "transpose", "t", "__get__", "unsqueeze", "squeeze", "expand", "expand_as",
               "repeat", "flatten", "flip", "roll", "detach", "requires_grad_", "narrow", "select", "__getitem__",
               "movedim", "swapaxes", "tile", "repeat_interleave", "contiguous"}


def _bound_of(v, tracker):
    if isinstance(v, bool):
        return (float(v), float(v))
    if isinstance(v, (int, float)):
        return (float(v), float(v))
    if isinstance(v, torch.Tensor):
        r = tracker.range_of(v)
        return (r[0], r[1]) if r else None
    return None


def _derive(name, args, kwargs, tracker):
    """The value range of an op's result from its operands' (interval arithmetic), or None."""
    a = _bound_of(args[0], tracker) if args else None
    b = _bound_of(args[1], tracker) if len(args) > 1 else None
    if name in _SAME_RANGE:
        return a
    if name in ("cat", "stack", "concat", "hstack", "vstack"):
        rs = [_bound_of(t, tracker) for t in (args[0] if args else [])]
        return (min(r[0] for r in rs), max(r[1] for r in rs)) if rs and all(rs) else None
    if name in ("triu", "tril"):
        return (min(a[0], 0.0), max(a[1], 0.0)) if a else None
    if name in ("abs", "absolute"):
        if not a:
            return None
        return a if a[0] >= 0 else ((-a[1], -a[0]) if a[1] <= 0 else (0.0, max(-a[0], a[1])))
    if name in ("neg", "__neg__", "negative"):
        return (-a[1], -a[0]) if a else None
    if name in ("softmax", "sigmoid", "_softmax"):
        return (0.0, 1.0)
    if name == "exp":
        return (math.exp(min(a[0], 700)), math.exp(min(a[1], 700))) if a else None
    if name in ("clamp", "clip", "clamp_min", "clamp_max"):
        rest = list(args[1:]) + [None, None]
        lo, hi = (None, rest[0]) if name == "clamp_max" else (rest[0], None if name == "clamp_min" else rest[1])
        lo, hi = kwargs.get("min", lo), kwargs.get("max", hi)
        if not a or not all(x is None or isinstance(x, (int, float)) for x in (lo, hi)):
            return None

        def clip(x):
            x = x if lo is None else max(lo, x)
            return x if hi is None else min(hi, x)

        return (clip(a[0]), clip(a[1]))
    if a is None or b is None:
        return None
    if name in ("__rsub__", "rsub"):
        a, b, name = b, a, "sub"
    if name in ("add", "__add__", "__radd__"):
        return (a[0] + b[0], a[1] + b[1])
    if name in ("sub", "__sub__", "subtract"):
        return (a[0] - b[1], a[1] - b[0])
    if name in ("mul", "__mul__", "__rmul__", "multiply"):
        ps = [x * y for x in a for y in b]
        return (min(ps), max(ps))
    if name in ("div", "__truediv__", "true_divide", "divide") and (b[0] > 0 or b[1] < 0):
        qs = [x / y for x in a for y in b]
        return (min(qs), max(qs))
    return None


class _RangeMode(torch.overrides.TorchFunctionMode):
    """Carries value ranges through the arithmetic of get_inputs() and Model.__init__ ((A + A.T) / 2,
    torch.triu(rand), randint(0, 2).float() * 2 - 1), so they need no real run."""

    def __init__(self, tracker):
        super().__init__()
        self.tracker = tracker

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        tr = self.tracker
        if tr.propagate and isinstance(out, torch.Tensor) and tr.range_of(out) is None:
            try:
                r = _derive(getattr(func, "__name__", ""), args, kwargs, tr)
            except (TypeError, ValueError, IndexError, OverflowError):
                r = None
            if r is not None and all(math.isfinite(x) for x in r):
                tr.note(out, r[0], r[1], "derived")
        return out


class _Tracker:
    """Patches the tensor factories and nn.init while active: tensors land on the meta device and the value
    range each was drawn from is remembered (by object identity; the tensors are kept alive meanwhile)."""

    def __init__(self, meta):
        self.meta = meta
        self.ranges = {}
        self.keep = []
        self.saved = []
        self.propagate = True  # off while forward() runs: its intermediates are not inputs

    def note(self, t, lo, hi, how):
        if isinstance(t, torch.Tensor):
            self.ranges[id(t)] = (float(lo), float(hi), how)
            self.keep.append(t)
        return t

    def range_of(self, t):
        return self.ranges.get(id(t))

    def _patch(self, owner, name, fn):
        self.saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, fn)

    def __enter__(self):
        tr = self

        def factory(name, rng):
            orig = getattr(torch, name)

            def wrapped(*args, **kwargs):
                if tr.meta:
                    kwargs["device"] = _META
                    kwargs.pop("pin_memory", None)
                    kwargs.pop("generator", None)
                t = orig(*args, **kwargs)
                r = rng(args, kwargs, t)
                return tr.note(t, *r) if r else t

            self._patch(torch, name, wrapped)

        def randint_range(args, kwargs, t):
            ints = [a for a in args if isinstance(a, int)]
            low, high = (ints[0], ints[1]) if len(ints) >= 2 else (kwargs.get("low", 0), ints[0] if ints else kwargs["high"])
            return (low, high - 1, "randint")

        def full_range(args, kwargs, t):
            v = kwargs.get("fill_value", args[1] if len(args) > 1 else None)
            return (v, v, "full") if isinstance(v, (int, float, bool)) else None

        factory("rand", lambda a, k, t: (0.0, 1.0, "rand"))
        factory("randn", lambda a, k, t: (-_NORMAL_SPAN, _NORMAL_SPAN, "randn"))
        factory("randint", randint_range)
        factory("zeros", lambda a, k, t: (0, 0, "zeros"))
        factory("ones", lambda a, k, t: (1, 1, "ones"))
        factory("full", full_range)
        factory("empty", lambda a, k, t: None)
        factory("randperm", lambda a, k, t: (0, max(t.numel() - 1, 0), "randperm"))
        factory("rand_like", lambda a, k, t: (0.0, 1.0, "rand"))
        factory("randn_like", lambda a, k, t: (-_NORMAL_SPAN, _NORMAL_SPAN, "randn"))
        factory("zeros_like", lambda a, k, t: (0, 0, "zeros"))
        factory("ones_like", lambda a, k, t: (1, 1, "ones"))
        factory("empty_like", lambda a, k, t: None)

        init = torch.nn.init

        def init_patch(name, rng):
            orig = getattr(init, name)

            def wrapped(tensor, *args, **kwargs):
                r = rng(tensor, *args, **kwargs)
                if tr.meta and tensor.device.type == "meta":
                    out = tensor  # nothing to fill: only the range matters
                else:
                    out = orig(tensor, *args, **kwargs)
                return tr.note(tensor, *r) if r else out

            self._patch(init, name, wrapped)

        def fan(tensor, mode="fan_in"):
            fan_in, fan_out = init._calculate_fan_in_and_fan_out(tensor)
            return fan_in if mode == "fan_in" else fan_out

        def kaiming_uniform(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", **_):
            b = init.calculate_gain(nonlinearity, a) * math.sqrt(3.0 / max(fan(tensor, mode), 1))
            return (-b, b, "kaiming_uniform")

        def kaiming_normal(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", **_):
            s = _NORMAL_SPAN * init.calculate_gain(nonlinearity, a) / math.sqrt(max(fan(tensor, mode), 1))
            return (-s, s, "kaiming_normal")

        def xavier(tensor, gain=1.0, **_):
            fi, fo = init._calculate_fan_in_and_fan_out(tensor)
            return math.sqrt(6.0 / max(fi + fo, 1)) * gain

        init_patch("uniform_", lambda t, a=0.0, b=1.0, **_: (a, b, "uniform"))
        init_patch("normal_", lambda t, mean=0.0, std=1.0, **_: (mean - _NORMAL_SPAN * std, mean + _NORMAL_SPAN * std,
                                                                "normal"))
        init_patch("trunc_normal_", lambda t, mean=0.0, std=1.0, a=-2.0, b=2.0, **_: (
            max(a, mean - _NORMAL_SPAN * std), min(b, mean + _NORMAL_SPAN * std), "trunc_normal"))
        init_patch("constant_", lambda t, val, **_: (val, val, "constant"))
        init_patch("ones_", lambda t, **_: (1, 1, "ones"))
        init_patch("zeros_", lambda t, **_: (0, 0, "zeros"))
        init_patch("kaiming_uniform_", kaiming_uniform)
        init_patch("kaiming_normal_", kaiming_normal)
        init_patch("xavier_uniform_", lambda t, gain=1.0, **_: (-xavier(t, gain), xavier(t, gain), "xavier_uniform"))
        init_patch("xavier_normal_", lambda t, gain=1.0, **_: (-xavier(t, gain), xavier(t, gain), "xavier_normal"))

        # nn.Parameter(t) is a new object: it inherits the range of the tensor it wraps.
        orig_new = torch.nn.Parameter.__new__

        def parameter_new(cls, data=None, requires_grad=True):
            p = orig_new(cls, data, requires_grad)
            r = tr.range_of(data)
            return tr.note(p, *r) if r else p

        self._patch(torch.nn.Parameter, "__new__", staticmethod(parameter_new))
        self.mode = _RangeMode(self)
        self.mode.__enter__()
        return self

    def __exit__(self, *exc):
        self.mode.__exit__(None, None, None)
        for owner, name, value in reversed(self.saved):
            setattr(owner, name, value)
        self.saved = []
        return False


def _literal(value, what):
    """`value` as a Python literal the generated golden can hold, or why not."""
    try:
        text = repr(value)
        plain = ast.literal_eval(text)  # numpy's int64 prints as a literal but is not one: keep the plain value
        if plain == value:
            return plain
    except (ValueError, SyntaxError, TypeError, RecursionError):
        pass
    raise ImportFailure("%s is a value of type %s, not a literal (int, float, bool, str, None, or a list/tuple of them)"
                        % (what, type(value).__name__))


def _jsonable(value):
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _describe(t, tracker, real=None):
    d = {"shape": list(t.shape), "dtype": _dtype_name(t.dtype)}
    r = tracker.range_of(t)
    if r is None and t.device.type != "meta":
        r = _real_range(t)
    if r is None and real is not None:
        r = _real_range(real)
    if r is not None:
        d["range"] = [_jsonable(r[0]), _jsonable(r[1])]
        d["range_from"] = r[2]
    return d


def _real_range(t):
    if t.numel() == 0:
        return None
    if t.dtype == torch.bool:
        return (0, 1, "bool")
    if t.is_complex():
        return None
    v = t.detach().to(torch.float64)
    return (float(v.min()), float(v.max()), "measured")


def _numel(values):
    n = 0
    for v in values:
        if isinstance(v, torch.Tensor):
            n += v.numel()
        elif isinstance(v, (list, tuple)):
            n += _numel(v)
    return n


def _forward_names(model, count):
    try:
        params = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            break
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
    while len(names) < count:
        names.append("input%d" % len(names))
    return names[:count]


def _args_of(group, tracker, real_group, position_names):
    out = []
    for i, v in enumerate(group):
        real = real_group[i] if real_group is not None else None
        where = "argument %d (%s) of forward()" % (i, position_names[i])
        if isinstance(v, torch.Tensor):
            out.append(dict(kind="tensor", **_describe(v, tracker, real)))
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) for x in v):
            items = [_describe(x, tracker, real[j] if real is not None else None) for j, x in enumerate(v)]
            out.append({"kind": "tensor_list", "items": items})
        elif v is None:
            out.append({"kind": "none"})
        else:
            out.append({"kind": "value", "value": _jsonable(_literal(v, where))})
    return out


def _as_groups(value, what):
    if isinstance(value, torch.Tensor):
        return [[value]]
    if not isinstance(value, (list, tuple)):
        raise ImportFailure("%s returned a value of type %s, not a list" % (what, type(value).__name__))
    return [list(value)]


def _cast(v, dtype):
    if isinstance(v, torch.Tensor) and v.is_floating_point():
        return v.to(dtype)
    if isinstance(v, (list, tuple)):
        return type(v)(_cast(x, dtype) for x in v)
    return v


def _outputs(result):
    # A list of tensors is one tensor-list output (NPUKernelBench's Foreach ops return as many tensors as they
    # get); a tuple is several outputs.
    if isinstance(result, list) and result and all(isinstance(r, torch.Tensor) for r in result):
        if any(r.is_complex() for r in result):
            raise ImportFailure("an output of forward() is complex, which a task cannot store")
        items = [{"shape": list(r.shape), "dtype": _dtype_name(r.dtype)} for r in result]
        return [{"is_list": True, "items": items, "dtype": items[0]["dtype"]}]
    if isinstance(result, torch.Tensor):
        result = [result]
    if not isinstance(result, (list, tuple)):
        raise ImportFailure("forward() returned a value of type %s, not a tensor or a tuple of tensors"
                            % type(result).__name__)
    outs = []
    for i, r in enumerate(result):
        if not isinstance(r, torch.Tensor):
            raise ImportFailure("output %d of forward() is a value of type %s, not a tensor" % (i, type(r).__name__))
        if r.is_complex():
            raise ImportFailure("output %d of forward() is %s, which a task cannot store" % (i, _dtype_name(r.dtype)))
        outs.append({"shape": list(r.shape), "dtype": _dtype_name(r.dtype)})
    return outs


def _all_float32(groups, model):
    tensors = [t for g in groups for t in _flat_tensors(g)] + list(model.parameters()) + list(model.buffers())
    floats = [t for t in tensors if t.is_floating_point()]
    return bool(floats) and all(t.dtype == torch.float32 for t in floats)


def _flat_tensors(values):
    for v in values:
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from _flat_tensors(v)


def _message(e):
    """An exception in one line: its type and its first sentence (torch's messages run on for lines)."""
    text = ("%s: %s" % (type(e).__name__, e)).strip()
    line = text.splitlines()[0] if text else type(e).__name__
    cut = line.find(". ")
    return (line[:cut + 1] if cut > 0 else line)[:240]


class _Source:
    """The upstream callables of one task, whatever the benchmark: make_model(init), init_inputs(k), groups()."""

    def __init__(self, model_cls, groups_fn, init_fn, n_init):
        self.model_cls = model_cls
        self.groups_fn = groups_fn
        self.init_fn = init_fn
        self.n_init = n_init


def _exec_file(path, name, extra_globals=None):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    module = types.ModuleType(name)
    module.__file__ = path
    if extra_globals:
        module.__dict__.update(extra_globals)
    code = compile(text, path, "exec")
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module


def _stub_npu_modules():
    """NPUKernelBench's module.py imports torch_npu (and its transfer_to_npu) and kernel_gen_ops (the kernel under
    test, used by ModelNew only) at the top, its prepare_inputs.py framework.utils (for custom_check_precision):
    stand-ins where they are not installed, so Model loads. A Model that calls one of them still fails, by name."""
    names = ("torch_npu", "torch_npu.contrib", "torch_npu.contrib.transfer_to_npu", "kernel_gen_ops", "framework",
             "framework.utils")
    for name in names:
        if name in sys.modules:
            continue
        try:
            __import__(name)
        except ImportError:
            sys.modules[name] = types.ModuleType(name)
    for name in names:
        parent, _, child = name.rpartition(".")
        if parent and not hasattr(sys.modules[parent], child):
            setattr(sys.modules[parent], child, sys.modules[name])
    utils = sys.modules["framework.utils"]
    if not hasattr(utils, "check_precision"):
        def check_precision(*args, **kwargs):
            raise NotImplementedError("framework.utils.check_precision is NPUKernelBench's, not available here")
        utils.check_precision = check_precision


_BOOLS = {"True": True, "TRUE": True, "true": True, "False": False, "FALSE": False, "false": False}


def _parses(text, conv):
    try:
        conv(text)
        return True
    except ValueError:
        return False


def _pandas_column(cells):
    """A test_cases.csv column as pandas' read_csv gives it to prepare_inputs: typed per column (all booleans:
    bool; all integers: int, float when one is empty; all numbers: float; else strings), NaN for empty cells."""
    cells = [c.strip() for c in cells]
    full = [c for c in cells if c != ""]
    nan = float("nan")
    if full and len(full) == len(cells) and all(c in _BOOLS for c in full):
        return [_BOOLS[c] for c in cells]
    if full and all(_parses(c, int) for c in full):
        conv = int if len(full) == len(cells) else float
        return [conv(c) if c != "" else nan for c in cells]
    if full and all(_parses(c, float) for c in full):
        return [float(c) if c != "" else nan for c in cells]
    return [c if c != "" else nan for c in cells]


class _Row(dict):
    """A test_cases.csv row; prepare_inputs reads it as a pandas row (param.get, param['x'])."""


def _read_cases_csv(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f, delimiter=";"))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise ImportFailure("validation/test_cases.csv is empty")
    header = [h.strip() for h in rows[0]]
    out = []
    for n, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ImportFailure("validation/test_cases.csv:%d: %d cells, the header has %d" % (n, len(r), len(header)))
        out.append(r)
    columns = [_pandas_column([r[i] for r in out]) for i in range(len(header))]
    out = [_Row({h: columns[i][n] for i, h in enumerate(header)}) for n in range(len(out))]
    if not out:
        raise ImportFailure("validation/test_cases.csv has a header but no case")
    return header, out


def _kernelbench_source(item):
    module = _exec_file(item["file"], "tilecraft_import_model")
    model_cls = getattr(module, "Model", None)
    if not isinstance(model_cls, type) or not issubclass(model_cls, torch.nn.Module):
        raise ImportFailure("the file defines no class Model(nn.Module)")
    groups_fn = getattr(module, "get_input_groups", None)
    inputs_fn = getattr(module, "get_inputs", None)
    if groups_fn is None and inputs_fn is None:
        raise ImportFailure("the file defines neither get_inputs() nor get_input_groups()")
    init_fn = getattr(module, "get_init_inputs", None)

    def groups():
        if groups_fn is not None:
            value = groups_fn()
            if not isinstance(value, (list, tuple)) or not value:
                raise ImportFailure("get_input_groups() returned no group")
            return [list(g) if isinstance(g, (list, tuple)) else [g] for g in value], "get_input_groups()"
        return _as_groups(inputs_fn(), "get_inputs()"), "get_inputs()"

    def init(k):
        return list(init_fn()) if init_fn is not None else []

    return _Source(model_cls, groups, init, 1)


def _npukernelbench_source(item):
    d = item["dir"]
    _stub_npu_modules()
    validation = os.path.join(d, "validation")
    sys.path.insert(0, validation)
    try:
        prepare = _exec_file(os.path.join(validation, "prepare_inputs.py"), "tilecraft_import_prepare")
        module = _exec_file(os.path.join(validation, "module.py"), "tilecraft_import_model")
    finally:
        sys.path.remove(validation)
    model_cls = getattr(module, "Model", None)
    if not isinstance(model_cls, type) or not issubclass(model_cls, torch.nn.Module):
        raise ImportFailure("validation/module.py defines no class Model(nn.Module)")
    get_inputs = getattr(prepare, "get_inputs", None)
    if get_inputs is None:
        raise ImportFailure("validation/prepare_inputs.py defines no get_inputs(param, device)")
    init_fn = getattr(prepare, "get_init_inputs", None)
    _, rows = _read_cases_csv(os.path.join(validation, "test_cases.csv"))

    def groups():
        out = []
        for row in rows:
            value = get_inputs(row, "cpu")
            out.append(list(value) if isinstance(value, (list, tuple)) else [value])
        return out, "get_inputs(param)"

    def init(k):
        return list(init_fn(rows[k], "cpu")) if init_fn is not None else []

    src = _Source(model_cls, groups, init, len(rows))
    src.case_ids = [row.get("case_id", i) for i, row in enumerate(rows)]
    return src


def _probe(item, kind, budget, meta=True):
    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)
    _stub_npu_modules()
    src = _kernelbench_source(item) if kind == "kernelbench" else _npukernelbench_source(item)
    notes = [] if meta else ["get_inputs() does not run on the meta device: probed with real tensors"]
    with _Tracker(meta=meta) as tracker:
        try:
            groups, what = src.groups_fn()
        except ImportFailure:
            raise
        except Exception as e:
            raise ImportFailure("%s raised %s" % ("get_inputs()" if kind == "kernelbench" else "get_inputs(param)",
                                                  _message(e)), meta=meta)
        inits = []
        for k in range(len(groups) if src.n_init > 1 else 1):
            try:
                inits.append(src.init_fn(k))
            except Exception as e:
                raise ImportFailure("get_init_inputs() raised %s" % _message(e))
        init_literals = [[_literal(v, "value %d of get_init_inputs()" % i) for i, v in enumerate(init)]
                         for init in inits]
        models = []
        for init in inits:
            try:
                models.append(src.model_cls(*init))
            except Exception as e:
                raise ImportFailure("Model(*get_init_inputs()) raised %s" % _message(e))

        def model_of(g):
            return models[g] if len(models) > 1 else models[0]

        names = _forward_names(models[0], max(len(g) for g in groups))
        state = [[(n, t) for n, t in list(m.named_parameters()) + list(m.named_buffers()) if t.is_floating_point()]
                 for m in models]

        def forward(g, dtype=None):
            tracker.propagate = False
            m = model_of(g)
            args = groups[g]
            if dtype is not None:
                m = m.to(dtype)
                args = _cast(args, dtype)
            try:
                return _outputs(m(*args))
            finally:
                if dtype is not None:
                    m.to(torch.float32)

        outputs, meta_error = [], None
        for g in range(len(groups)):
            try:
                outputs.append(forward(g))
            except ImportFailure:
                raise
            except Exception as e:
                meta_error = e
                break
        variants = []
        if meta_error is None and _all_float32(groups, models[0]):
            for dtype in (torch.float16, torch.bfloat16):
                try:
                    outs = forward(0, dtype)
                except Exception:
                    continue
                if all(o["dtype"] != "float32" for o in outs):
                    variants.append({"dtype": _dtype_name(dtype), "outputs": outs})

    # Ranges the factories did not give, and the outputs when the meta device cannot run forward(), from a real
    # run of the same code when it is small enough.
    unknown = any(tracker.range_of(t) is None and t.device.type == "meta" for g in groups for t in _flat_tensors(g))
    unknown = unknown or any(tracker.range_of(t) is None and t.device.type == "meta" for s in state for _, t in s)
    total = _numel([t for g in groups for t in _flat_tensors(g)]) + sum(_numel([t for _, t in s]) for s in state)
    real_groups, real_state = None, None
    if meta_error is not None and not meta:
        raise ImportFailure("forward() raised %s" % _message(meta_error))
    if (unknown or meta_error is not None) and total <= budget:
        torch.manual_seed(0)
        try:
            real_groups, _ = src.groups_fn()
            real_models = [src.model_cls(*init) for init in inits]
            real_state = [dict((n, t) for n, t in list(m.named_parameters()) + list(m.named_buffers()))
                          for m in real_models]
            if meta_error is not None:
                outputs = []
                for g in range(len(real_groups)):
                    m = real_models[g] if len(real_models) > 1 else real_models[0]
                    with torch.no_grad():
                        outputs.append(_outputs(m(*real_groups[g])))
                notes.append("forward() does not run on the meta device (%s): outputs from a real run, no "
                             "float16/bfloat16 variant" % _message(meta_error))
        except ImportFailure:
            raise
        except Exception as e:
            raise ImportFailure("%s raised %s" % ("forward()" if meta_error is not None else "a real run of the task",
                                                  _message(e)))
    elif meta_error is not None:
        raise ImportFailure("forward() does not run on the meta device (%s), and a real run would take %d elements, "
                            "more than the budget of %d" % (_message(meta_error), total, budget))
    elif unknown:
        notes.append("some value ranges are unknown (inputs of %d elements, more than the budget of %d, made by code "
                     "other than a torch factory): the default range is used" % (total, budget))

    out_groups = []
    for g, group in enumerate(groups):
        real_group = real_groups[g] if real_groups is not None else None
        out_groups.append(_args_of(group, tracker, real_group, names))
    params = []
    for n, t in state[0]:
        real = real_state[0].get(n) if real_state is not None else None
        params.append(dict(name=n, **_describe(t, tracker, real)))
    result = {"ok": True, "groups": out_groups, "forward_names": names, "params": params, "outputs": outputs,
              "variants": variants, "init_inputs": [_jsonable(i) for i in init_literals],
              "init_literal": [repr(i) for i in init_literals], "notes": notes, "inputs_from": what}
    if hasattr(src, "case_ids"):
        result["case_ids"] = [_jsonable(c) for c in src.case_ids]
    return result


def _on_alarm(signum, frame):
    raise _Timeout()


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    signal.signal(signal.SIGALRM, _on_alarm)
    out = open(request["out"], "a", encoding="utf-8")
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # what a task prints is not the protocol
    for item in request["items"]:
        out.write(json.dumps({"id": item["id"], "start": True}) + "\n")
        out.flush()
        signal.alarm(int(request.get("timeout", 60)))
        try:
            try:
                result = _probe(item, request["kind"], int(request.get("budget", 1 << 26)))
            except ImportFailure as e:
                if not e.meta:
                    raise
                # Code that reads values (.item(), a data-dependent size) cannot run on meta tensors: run it for
                # real, within the sandbox's memory limit; when that fails too, the meta error is the report.
                try:
                    result = _probe(item, request["kind"], int(request.get("budget", 1 << 26)), meta=False)
                except ImportFailure as real:
                    if str(real) == str(e):
                        raise
                    raise ImportFailure("%s; with real tensors: %s" % (e, real))
        except ImportFailure as e:
            result = {"ok": False, "error": str(e)}
        except _Timeout:
            result = {"ok": False, "error": "the probe took longer than %s s" % request.get("timeout", 60)}
        except BaseException as e:  # SystemExit included: one bad task never ends the run
            result = {"ok": False, "error": "loading the file raised %s" % _message(e)}
        finally:
            signal.alarm(0)
        for name in ("tilecraft_import_model", "tilecraft_import_prepare"):
            sys.modules.pop(name, None)
        result["id"] = item["id"]
        try:
            line = json.dumps(result, sort_keys=True)
        except (TypeError, ValueError) as e:
            line = json.dumps({"id": item["id"], "ok": False, "error": "the probe's answer cannot be written: %s"
                               % _message(e)})
        out.write(line + "\n")
        out.flush()
    sys.stdout = real_stdout
    out.close()


if __name__ == "__main__":
    main()

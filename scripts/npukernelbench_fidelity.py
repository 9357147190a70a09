#!/usr/bin/python3
"""NPUKernelBench's reference answers as a fidelity suite for `tilecraft project run` (docs/projects.md).

For each task of a local NPUKernelBench checkout (fetch the public weich97/NPUKernelBench; nothing of it is kept in
this repository) that has a reference answer (`answer/0/`, an msopgen project), the first case(s) of
`validation/test_cases.csv` are turned into inputs by the task's own `prepare_inputs.get_inputs`, the golden is
the task's PyTorch `Model` on the CPU, and `ModelNew`'s call of `kernel_gen_ops.<op>(...)` tells which arguments
are the OpDef's inputs (tensors, in order) and attributes (everything else, in order). The answer then runs with
`tilecraft project run ANSWER --in #i=... --attr #j=... --expect #k=...` and each task is classified:
pass, mismatch (a discrepancy to investigate), host-api (op_host does not build: the first error), emulator-api
(the kernel does not build), check (an emulator or host check failed), usage, golden (the reference cannot run on
the CPU), unsupported (an input no .npy here holds), timeout. A list of tensors (an msopgen DYNAMIC parameter) is
passed as `--in #i=a.npy,b.npy,...`; a golden that is a list is one tensor-list output, a tuple one output per
element (each a tensor or a list). A binding that calls one of CANN's built-in aclnn operators instead of
aclnnCustomOp (ACLNN_BUILTINS) is mapped as that operator maps its arguments. A mismatch by `project run`'s rule
(CANN's, by dtype) is judged again by the benchmark's own (the task's custom_check_precision, else abs and rel
1e-3 per element) and passes if that rule passes it, the stricter verdict kept in the detail.

Needs python3 with torch (Debian's python3-torch) and numpy.
  scripts/npukernelbench_fidelity.py NKB/tasks --tilecraft build/cli/tilecraft --levels level1 level2 \
      --json results.json
"""
import argparse
import csv
import ast
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import types

import torch

NPY_DESCR = {torch.float16: '<f2', torch.float32: '<f4', torch.bfloat16: '<V2', torch.int8: '|i1',
             torch.uint8: '|u1', torch.int16: '<i2', torch.int32: '<i4', torch.int64: '<i8', torch.bool: '|b1',
             torch.complex64: '<c8'}


def save_npy(path, tensor):
    t = tensor.detach().cpu().contiguous()
    if t.dtype == torch.float64:
        t = t.float()
    if t.dtype not in NPY_DESCR:
        raise ValueError(f'dtype {t.dtype} has no .npy form here')
    data = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()
    shape = tuple(t.shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (NPY_DESCR[t.dtype], repr(shape))
    header += ' ' * ((64 - (10 + len(header) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + len(header).to_bytes(2, 'little') + header.encode('latin1') + data)


def load_npy(path):
    """A .npy file as a torch tensor; '<V2' (how bfloat16 is written here and by project run) as bfloat16."""
    import numpy
    a = numpy.load(path, allow_pickle=False)
    if a.dtype.kind == 'V' and a.dtype.itemsize == 2:
        return torch.from_numpy(a.view(numpy.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(a.copy())


def stub_npu_modules():
    # torch_npu is the NPU; pandas is imported (not used for goldens) by NPUKernelBench's framework/utils.py.
    for name in ['torch_npu', 'torch_npu.contrib', 'torch_npu.contrib.transfer_to_npu', 'pandas']:
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules['torch_npu.contrib'].transfer_to_npu = sys.modules['torch_npu.contrib.transfer_to_npu']
    sys.modules['torch_npu'].contrib = sys.modules['torch_npu.contrib']



def check_precision(outputs, outputs_new, max_abs_error, max_rel_error):
    """NPUKernelBench's precision rule (framework/utils.py), written here: the outputs are compared pairwise as
    zip(golden, kernel's) does; an element fails when its absolute error is over `max_abs_error` and its relative
    error (over |golden| + 1e-7) over `max_rel_error`; any non-finite value fails. Returns (1 or 0, None, None)."""
    outputs = outputs if isinstance(outputs, list) else [outputs]
    outputs_new = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    for out, new in zip(outputs, outputs_new):
        if new.dtype == torch.bool:
            out, new = out.to(torch.int), new.to(torch.int)
        abs_diff = torch.abs(out - new)
        rel_diff = abs_diff / (torch.abs(out) + 1e-7)
        if not all(torch.isfinite(t).all() for t in (out, new, abs_diff, rel_diff)):
            return 0, None, None
        if ((abs_diff > max_abs_error) & (rel_diff > max_rel_error)).any():
            return 0, None, None
    return 1, None, None


def default_thresholds(root):
    """eval.max_abs_error and eval.max_rel_error of the checkout's base_config.yaml (1e-3 each without one)."""
    found = {}
    try:
        with open(os.path.join(root, 'base_config.yaml')) as f:
            for line in f:
                m = re.match(r'\s*(max_abs_error|max_rel_error):\s*([0-9.eE+-]+)', line)
                if m:
                    found[m.group(1)] = float(m.group(2))
    except OSError:
        pass
    return found.get('max_abs_error', 1e-3), found.get('max_rel_error', 1e-3)


def stub_framework(root):
    """framework.utils (imported by some prepare_inputs.py for its precision check, never for inputs) when the
    checkout has no framework/ folder: its check_precision is the rule above."""
    if os.path.isdir(os.path.join(root, 'framework')) or 'framework' in sys.modules:
        return
    framework = types.ModuleType('framework')
    framework.__path__ = []
    utils = types.ModuleType('framework.utils')
    utils.check_precision = check_precision
    framework.utils = utils
    sys.modules['framework'] = framework
    sys.modules['framework.utils'] = utils


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Recorder(types.ModuleType):
    """kernel_gen_ops: records the call ModelNew makes."""

    def __init__(self):
        super().__init__('kernel_gen_ops')
        self.calls = []

    def __getattr__(self, op):
        def call(*args, **kwargs):
            self.calls.append((op, list(args) + list(kwargs.values())))
            raise StopIteration
        return call


def reference(module, init, inputs):
    """The golden on the CPU; half and bfloat16 ops the CPU lacks run in float32, rounded back."""
    return call_low_precision(module.Model, init, inputs)


def call_low_precision(make, init, inputs):
    """make(*init)(*inputs), or, when the CPU has no half or bfloat16 kernel for an op in it, the same on float32
    copies of both, with the float32 tensors of the result rounded back to the inputs' low dtype."""
    try:
        return make(*init)(*inputs)
    except RuntimeError as e:
        if 'Half' not in str(e) and 'BFloat16' not in str(e):
            raise
    flat = [x for v in inputs for x in (v if isinstance(v, (list, tuple)) else [v])]
    low = [t.dtype for t in flat if isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16)]

    def up(v):
        if isinstance(v, (list, tuple)):
            return type(v)(up(x) for x in v)
        return v.float() if isinstance(v, torch.Tensor) and v.dtype in (torch.float16, torch.bfloat16) else v
    out = make(*[up(v) for v in init])(*[up(v) for v in inputs])

    def down(v):
        if isinstance(v, (list, tuple)):
            return type(v)(down(x) for x in v)
        return v.to(low[0]) if isinstance(v, torch.Tensor) and v.dtype == torch.float32 and low else v
    return type(out)(down(v) for v in out) if isinstance(out, (list, tuple)) else down(out)


class LowPrecisionOps(torch.overrides.TorchFunctionMode):
    """Inside it, a torch function the CPU has no half or bfloat16 kernel for runs on float32 copies of its
    arguments, and a float32 result is rounded back to the low dtype, op by op as the NPU computes it
    (RmsNormGrad's prepare_inputs takes rsqrt of a half tensor)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        try:
            return func(*args, **kwargs)
        except RuntimeError as e:
            if 'Half' not in str(e) and 'BFloat16' not in str(e):
                raise
        flat = [x for v in list(args) + list(kwargs.values()) for x in (v if isinstance(v, (list, tuple)) else [v])]
        low = [t.dtype for t in flat if isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16)]

        def up(v):
            if isinstance(v, (list, tuple)):
                return type(v)(up(x) for x in v)
            return v.float() if isinstance(v, torch.Tensor) and v.dtype in (torch.float16, torch.bfloat16) else v
        out = func(*up(list(args)), **{k: up(v) for k, v in kwargs.items()})
        return out.to(low[0]) if isinstance(out, torch.Tensor) and out.dtype == torch.float32 and low else out


def task_inputs(prep, row):
    """prepare_inputs' (inputs, init inputs) for a csv row, half ops the CPU lacks run as LowPrecisionOps says."""
    with LowPrecisionOps():
        inputs = prep.get_inputs(row, device=None)
        init = prep.get_init_inputs(row, device=None) if hasattr(prep, 'get_init_inputs') else []
    return inputs, init


def record_call(model, inputs, recorder):
    """Runs ModelNew until its kernel_gen_ops call; returns the call's arguments (a list), which
    call_low_precision rounds back like any result."""
    recorder.calls.clear()
    try:
        model(*inputs)
    except StopIteration:
        pass
    if not recorder.calls:
        raise StopIteration
    return list(recorder.calls[0][1])


# Some tasks' bindings (validation/pybind.cpp) call CANN's built-in aclnn operator, not aclnnCustomOp: CANN's aclnn
# layer then hands the arguments to the operator's OpDef by its own rules, which the recorded call cannot show. What
# it does for these, from the aclnn API documentation of CANN 8.1: the OpDef names of the binding's arguments, in
# order, and of its outputs, in order; the binding allocates every output but may return only some, and
# NPUKernelBench compares zip(golden, binding's outputs), so the rest get their shapes (`--shape`) and no check.
ACLNN_BUILTINS = {
    'aclnnMseLossBackward': (['dout', 'predict', 'label', 'reduction'], ['y']),
    'aclnnCrossEntropyLoss': (['input', 'target', 'weight', 'reduction', 'ignore_index', 'label_smoothing',
                               'lse_square_scale_for_zloss', 'return_zloss'],
                              ['loss', 'log_prob', 'zloss', 'lse_for_zloss']),
    'aclnnCrossEntropyLossGrad': (['grad_loss', 'log_prob', 'target', 'weight', 'grad_zloss', 'lse_for_zloss',
                                   'reduction', 'ignore_index', 'label_smoothing', 'lse_square_scale_for_zloss'],
                                  ['x_grad']),
    'aclnnBatchNorm': (['x', 'weight', 'bias', 'running_mean', 'running_var', 'is_training', 'momentum', 'epsilon'],
                       ['y', 'save_mean', 'save_rstd']),
    'aclnnForeachPowScalarAndTensor': (['x', 'scalar'], ['y']),
    'aclnnLayerNorm': (['x', 'normalized_shape', 'gamma', 'beta', 'epsilon'], ['y', 'mean', 'rstd']),
}
# The binding's int arrays (aclIntArray) that the operator takes as an int32 input tensor, by argument position.
ACLNN_INT_ARRAY_INPUTS = {
    'aclnnLayerNorm': [1],
}
# How many of the outputs a binding returns, from the call's arguments, where it is not all of them.
ACLNN_RETURNED = {
    'aclnnCrossEntropyLoss': lambda a: 4 if a[7] else 2,  # zloss and lse_for_zloss only with return_zloss
}


def builtin_aclnn(validation):
    """ACLNN_BUILTINS' entry for the operator the task's binding calls, or None: a binding that calls
    aclnnCustomOp (on any path) runs the answer as the recorded call says."""
    try:
        with open(os.path.join(validation, 'pybind.cpp'), errors='replace') as f:
            called = re.findall(r'EXEC_NPU_CMD\(\s*(aclnn\w+)', f.read())
    except OSError:
        return None
    if not called or 'aclnnCustomOp' in called or called[0] not in ACLNN_BUILTINS:
        return None
    names, outputs = ACLNN_BUILTINS[called[0]]
    return (names, outputs, ACLNN_RETURNED.get(called[0], lambda a: len(outputs)),
            ACLNN_INT_ARRAY_INPUTS.get(called[0], []))


def call_arg_names(model_class):
    """The names ModelNew's kernel_gen_ops call gives its arguments (`x1`, `self.gamma` -> `gamma`, `k=v` -> `k`),
    None where an argument is an expression; [] when the source cannot be read."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(model_class.forward)))
    except (OSError, TypeError, SyntaxError):
        return []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == 'kernel_gen_ops'):
            names = [a.id if isinstance(a, ast.Name) else a.attr if isinstance(a, ast.Attribute) else None
                     for a in node.args]
            return names + [k.arg for k in node.keywords]
    return []


def project_args(call_args, names, outs, tmp, bool_as_uint8=False, attrs_by_name=True, out_names=None,
                 compared=None, lists_as_tensors=False):
    """`project run`'s --in/--attr/--expect for the recorded call: by the OpDef's names when `names` gives every
    tensor (or every other argument) one, as the binding maps them (AddLayerNorm's ModelNew passes bias third,
    its OpDef has it fifth), else by position (`attrs_by_name` False: the attributes only); the outputs by
    `out_names` where given, else by position; past the first `compared` outputs, only their shapes. `bool_as_uint8`: bool tensors as the uint8 bytes they are (an OpDef
    that takes a mask as uint8, ScatterList's, gets the binding's torch.bool tensor in that dtype slot).
    `lists_as_tensors`: a list of ints is an int64 tensor, as CANN's aclnn hands an aclIntArray to an OpDef input
    (Fill's `dims`, a ValueDepend input its tiling reads on the host)."""
    if lists_as_tensors:
        call_args = [torch.tensor(list(a), dtype=torch.int64) if isinstance(a, (list, tuple)) and a and all(
            isinstance(v, int) and not isinstance(v, bool) for v in a) else a for a in call_args]
    tensor_named = bool(names) and all(n for a, n in zip(call_args, names) if isinstance(a, torch.Tensor)
                                       or is_tensor_list(a))
    attr_named = attrs_by_name and bool(names) and all(n for a, n in zip(call_args, names) if a is not None and not (
        isinstance(a, torch.Tensor) or is_tensor_list(a)))
    cmd = []
    tensors = attrs = 0
    for i, a in enumerate(call_args):
        name = names[i] if i < len(names) else None
        if is_tensor_list(a) or isinstance(a, torch.Tensor):
            parts = a if is_tensor_list(a) else [a]
            paths = []
            for k, t in enumerate(parts):
                paths.append(os.path.join(tmp, f'in{tensors}_{k}.npy'))
                save_npy(paths[-1], t.to(torch.uint8) if bool_as_uint8 and t.dtype == torch.bool else t)
            cmd += ['--in', f'{name if tensor_named else "#" + str(tensors)}=' + ','.join(paths)]
            tensors += 1
        elif a is not None:
            value = ','.join(str(v) for v in a) if isinstance(a, (list, tuple)) else str(a)
            cmd += ['--attr', f'{name if attr_named else "#" + str(attrs)}={value}']
            attrs += 1
        else:
            attrs += 1
    for k, o in enumerate(outs if out_names is None else outs[:len(out_names)]):
        if compared is not None and k >= compared and isinstance(o, torch.Tensor):
            cmd += ['--shape', f'{out_names[k]}=' + ','.join(str(d) for d in (o.shape or [1]))]
        elif is_tensor_list(o):
            paths = []
            for e, t in enumerate(o):
                paths.append(os.path.join(tmp, f'out{k}_{e}.npy'))
                save_npy(paths[-1], t)
            cmd += ['--expect', f'{out_names[k] if out_names else "#" + str(k)}=' + ','.join(paths)]
        elif isinstance(o, torch.Tensor):
            path = os.path.join(tmp, f'out{k}.npy')
            # A 0-dim golden (torch.tensor(flag)) is the one-element output an OpDef declares as [1].
            save_npy(path, o.reshape(1) if o.dim() == 0 else o)
            cmd += ['--expect', f'{out_names[k] if out_names else "#" + str(k)}={path}']
    return cmd


def mapping_args(call_args, outs, tmp, options):
    """project_args for each option (its keyword arguments), each writing its .npy files to a folder of its own
    under tmp: the mappings are built before any runs, and one's tensor in an argument slot is not another's.
    Two options that map alike give the same list, so the caller runs it once."""
    mappings, seen = [], {}
    for k, option in enumerate(options):
        folder = os.path.join(tmp, f'm{k}')
        os.makedirs(folder, exist_ok=True)
        mapping = project_args(call_args, outs=outs, tmp=folder, **option)
        mappings.append(seen.setdefault(tuple(a.replace(folder, '') for a in mapping), mapping))
    return mappings


def classify(status, out, err):
    text = out + err
    if status == 0 and '\nPASS ' in '\n' + out:
        return 'pass', ''
    first = next((l for l in err.splitlines() if 'error' in l), err.strip().splitlines()[-1] if err.strip() else '')
    if 'MISMATCH' in out:
        return 'mismatch', re.sub(r' -> \S+\.npy', '', next(l.strip() for l in out.splitlines() if 'MISMATCH' in l))
    if "does not build against the emulator's host API" in text:
        return 'host-api', first
    if 'does not build against the emulator' in text:
        return 'emulator-api', first
    if status == 3:
        return 'check', first
    if status == 2:
        return 'usage', first
    return 'failed', first


def with_faults(verdict, err):
    """A pass under `--faults warn` that the emulator reported faults for is `pass-faults`: the answer holds faults
    the device runs through (a cross-pipe race, stale UB, a GM access in its tensor's 512-byte block), named at
    their lines in the detail."""
    faults = [l.strip() for l in err.splitlines() if ': warning: ' in l and not l.startswith('warning ')
              and 'InferShape of' not in l and 'InferDataType of' not in l]
    if verdict[0] != 'pass' or not faults:
        return verdict
    names = '; '.join(re.sub(r'^.*/answer/0/', '', f) for f in faults)
    return 'pass-faults', names + (f' ({verdict[1]})' if verdict[1] else '')


def is_tensor_list(value):
    return isinstance(value, (list, tuple)) and value and all(isinstance(t, torch.Tensor) for t in value)


def typed(value):
    """A test_cases.csv cell as pandas.read_csv reads it (NPUKernelBench's framework does): int, float, bool, str."""
    for convert in (int, float):
        try:
            return convert(value)
        except (TypeError, ValueError):
            pass
    # pandas' default true_values and false_values: a lowercase 'false' read as the string would be truthy.
    bools = {'True': True, 'TRUE': True, 'true': True, 'False': False, 'FALSE': False, 'false': False}
    return bools.get(value, value)


def run_task(task, args):
    answer = os.path.join(task, 'answer', '0')
    validation = os.path.join(task, 'validation')
    with open(os.path.join(validation, 'test_cases.csv')) as f:
        rows = [{k: typed(v) for k, v in row.items()} for row in csv.DictReader(f, delimiter=';')][:args.cases]
    stub_npu_modules()
    recorder = Recorder()  # before module.py, which may import kernel_gen_ops at its top
    sys.modules['kernel_gen_ops'] = recorder
    sys.path.insert(0, validation)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(task))))
    sys.path.insert(1, root)  # framework/
    stub_framework(root)
    argv, sys.argv = sys.argv, sys.argv[:1]  # framework/ parses the command line when imported
    try:
        prep = load(os.path.join(validation, 'prepare_inputs.py'), 'prepare_inputs_' + os.path.basename(task))
        module = load(os.path.join(validation, 'module.py'), 'module_' + os.path.basename(task))
    except (Exception, SystemExit) as e:  # noqa: BLE001 - any import failure means no golden
        return [('golden', f'import: {type(e).__name__}: {e}')]
    finally:
        del sys.path[0:2]
        sys.argv = argv
    results = []
    for row in rows:
        torch.manual_seed(0)
        try:
            inputs, init = task_inputs(prep, row)
            golden = reference(module, init, inputs)
        except Exception as e:  # noqa: BLE001
            results.append(('golden', f'{type(e).__name__}: {e}'))
            continue
        recorder.calls.clear()
        try:
            # ModelNew may compute in half before its kernel call (GeGluGradV2's gelu): then in float32, the
            # recorded tensors rounded back as the golden's are.
            call_args = call_low_precision(lambda *i: lambda *a: record_call(module.ModelNew(*i), a, recorder), init,
                                           inputs)
        except StopIteration:
            results.append(('golden', 'ModelNew made no kernel_gen_ops call'))
            continue
        except Exception as e:  # noqa: BLE001
            results.append(('golden', f'ModelNew: {type(e).__name__}: {e}'))
            continue
        # A list golden is one tensor-list output only when the OpDef declares one (ParamType(DYNAMIC)); otherwise
        # the list, like a tuple, is one output per element.
        list_output = isinstance(golden, list) and has_dynamic_output(answer)
        outs = [golden] if list_output or not isinstance(golden, (list, tuple)) else list(golden)
        with tempfile.TemporaryDirectory(prefix='nkb-') as tmp:
            cmd = [args.tilecraft, 'project', 'run', answer, '--timeout', str(args.timeout), '--faults',
                   args.faults, '--out', os.path.join(tmp, 'got')]
            for d in args.include or common_includes(root):
                cmd += ['--include', d]
            builtin = builtin_aclnn(validation)
            names = builtin[0] if builtin else call_arg_names(module.ModelNew)
            # The mappings to try, by names first: ModelNew's names for the tensors and attributes, the same with
            # its int lists as int64 tensors (Fill's `dims`), by names for the tensors only (InplaceAddLayerNorm's
            # `additional_out` is the OpDef's `additional_output`), none. A built-in aclnn operator's mapping is the
            # only one.
            try:
                if builtin:
                    for i in builtin[3]:
                        call_args[i] = torch.tensor(list(call_args[i]), dtype=torch.int32)
                    options = [dict(names=names, out_names=builtin[1], compared=builtin[2](call_args))]
                else:
                    options = [dict(names=names), dict(names=names, lists_as_tensors=True),
                               dict(names=names, attrs_by_name=False), dict(names=[])]
                mappings = mapping_args(call_args, outs, tmp, options)
            except ValueError as e:
                results.append(('unsupported', str(e)))
                continue
            try:
                tried = []
                for mapping in mappings:
                    if mapping in tried:
                        continue
                    tried.append(mapping)
                    p = subprocess.run(cmd + mapping, capture_output=True, text=True, timeout=3 * args.timeout + 600)
                    # Names the OpDef does not have (the binding's own), or an input left without data (an int
                    # list taken for an attribute): the next mapping.
                    if not (p.returncode == 2 and re.search(r"has no (input|attribute) |' of \S+ has no data",
                                                            p.stderr)):
                        break
                # A bool tensor where the OpDef's column has uint8 (and no bool): its bytes as uint8.
                if p.returncode == 2 and re.search(r'takes no inputs .* bool\b.*OpDef dtype combinations', p.stderr) \
                        and 'bool' not in p.stderr.split('OpDef dtype combinations')[1]:
                    as_uint8 = mapping_args(call_args, outs, os.path.join(tmp, 'uint8'),
                                            [dict(options[mappings.index(tried[-1])], bool_as_uint8=True)])[0]
                    p = subprocess.run(cmd + as_uint8, capture_output=True, text=True, timeout=3 * args.timeout + 600)
                verdict = classify(p.returncode, p.stdout, p.stderr)
                if verdict[0] == 'mismatch':
                    verdict = benchmark_rule(verdict, p.stdout, prep, row, outs, default_thresholds(root))
                results.append(with_faults(verdict, p.stderr))
            except subprocess.TimeoutExpired:
                results.append(('timeout', ''))
    return results


def kernel_outputs(stdout):
    """project run's outputs in OpDef order, as written by --out: [(name, [file, ...])], a list's files in order."""
    outputs = []
    for m in re.finditer(r'^  ([A-Za-z_][A-Za-z0-9_]*)(\[\d+\])?: .* -> (\S+\.npy)', stdout, re.M):
        if m.group(2) and outputs and outputs[-1][0] == m.group(1):
            outputs[-1][1].append(m.group(3))
        else:
            outputs.append((m.group(1), [m.group(3)]))
    return outputs


def benchmark_rule(verdict, stdout, prep, row, outs, thresholds):
    """A mismatch by `project run`'s rule (interp::compare: CANN's mean and max relative error for the dtype)
    judged again by the benchmark's own: the task's custom_check_precision if it has one, else check_precision with
    base_config.yaml's thresholds, on the golden's outputs and the kernel's (zip order). Passing it is a pass; the
    detail keeps what the stricter rule said."""
    got = []
    for (_, files), want in zip(kernel_outputs(stdout), outs):
        tensors = [load_npy(f) for f in files]
        got.append(tensors if is_tensor_list(want) else tensors[0])
    golden = [t.reshape(1) if isinstance(t, torch.Tensor) and t.dim() == 0 else t for t in outs]
    golden = [torch.stack(list(t)).flatten() if is_tensor_list(t) else t for t in golden]
    got = [torch.stack(list(t)).flatten() if isinstance(t, list) else t for t in got]
    got = [g.to(w.dtype).reshape(w.shape) if g.numel() == w.numel() else g for g, w in zip(got, golden)]
    if len(got) < len(golden):
        return verdict
    try:
        if hasattr(prep, 'custom_check_precision'):
            ok = prep.custom_check_precision(row, golden, got)[0]
        else:
            ok = check_precision(golden, got, *thresholds)[0]
    except Exception as e:  # noqa: BLE001 - a rule that cannot run on these tensors leaves the verdict
        return verdict[0], f'{verdict[1]} (the benchmark rule did not run: {type(e).__name__}: {e})'
    if not ok:
        return verdict
    return 'pass', f"by NPUKernelBench's own precision rule; project run's stricter rule: {verdict[1]}"


def common_includes(root):
    """cann-ops' shared host headers (tiling/tiling_base.h, error/ops_error.h, ...), which some answers include:
    NPUKernelBench's build puts libs/common_include/cann-ops/src/common/inc on the include path."""
    inc = os.path.join(root, 'libs', 'common_include', 'cann-ops', 'src', 'common', 'inc')
    return [inc] if os.path.isdir(inc) else []


def has_dynamic_output(answer):
    """Whether the answer's OpDef declares a tensor-list output: `Output("y")...ParamType(DYNAMIC)`."""
    host = os.path.join(answer, 'op_host')
    for name in sorted(os.listdir(host)) if os.path.isdir(host) else []:
        if name.endswith('.cpp'):
            with open(os.path.join(host, name), errors='replace') as f:
                if re.search(r'Output\(\s*"[^"]*"\s*\)\s*\.\s*ParamType\(\s*DYNAMIC\s*\)', f.read()):
                    return True
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('tasks', help="NPUKernelBench's tasks/ folder")
    parser.add_argument('--tilecraft', default='build/cli/tilecraft')
    parser.add_argument('--levels', nargs='+', default=['level1', 'level2'])
    parser.add_argument('--cases', type=int, default=1, help='cases per task (the first of test_cases.csv)')
    parser.add_argument('--timeout', type=int, default=300)
    parser.add_argument('--include', nargs='+', default=[], metavar='DIR',
                        help="header folders for `project run --include` (default: the checkout's cann-ops common "
                             "includes)")
    parser.add_argument('--faults', choices=['error', 'warn'], default='warn',
                        help="project run's --faults: with warn (the default), an answer that passes with faults "
                             "the device runs through is pass-faults, with error it fails at the first")
    parser.add_argument('--only', default='', help='a regular expression on the task path')
    parser.add_argument('--json', default='', help='write the results here')
    parser.add_argument('--merge', nargs='+', default=[], metavar='JSON',
                        help='instead of running: the latest verdict per task over earlier --json files (a rerun '
                             'of some tasks after a fix), summed by level and verdict')
    args = parser.parse_args()
    if args.merge:
        latest = {}
        for path in args.merge:
            with open(path) as f:
                for row in json.load(f)['results']:
                    latest[row['task']] = row
        table = {}
        for row in latest.values():
            key = (row['task'].split('/')[0], row['verdict'])
            table[key] = table.get(key, 0) + 1
        for (level, verdict), n in sorted(table.items()):
            print(f'{level} {verdict} {n}')
        for row in sorted(latest.values(), key=lambda r: r['task']):
            print(f"{row['verdict']:13} {row['task']}  {row['detail']}"[:300])
        return
    args.tilecraft = os.path.abspath(args.tilecraft)
    tasks = []
    for level in args.levels:
        for root, dirs, _ in sorted(os.walk(os.path.join(args.tasks, level))):
            dirs.sort()
            if os.path.isdir(os.path.join(root, 'answer', '0')) and re.search(args.only, root):
                tasks.append(root)
    summary, rows = {}, []
    for task in tasks:
        start = time.time()
        for verdict, detail in run_task(task, args):
            name = os.path.relpath(task, args.tasks)
            rows.append({'task': name, 'verdict': verdict, 'detail': detail, 'seconds': round(time.time() - start)})
            summary[verdict] = summary.get(verdict, 0) + 1
            print(f'{verdict:13} {name}  {detail}'[:300], flush=True)
    print('summary:', ', '.join(f'{k} {v}' for k, v in sorted(summary.items())), f'of {len(rows)} cases')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'summary': summary, 'results': rows}, f, indent=1)


if __name__ == '__main__':
    main()

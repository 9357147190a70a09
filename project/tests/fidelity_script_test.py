#!/usr/bin/python3
"""scripts/npukernelbench_fidelity.py's own logic, without NPUKernelBench: how a test_cases.csv cell is read (as
pandas reads it, which NPUKernelBench's framework uses) and how a recorded call becomes `project run`'s arguments."""
import importlib.util
import os
import sys
import tempfile
import unittest

import torch

REPO = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
spec = importlib.util.spec_from_file_location('fidelity', os.path.join(REPO, 'scripts', 'npukernelbench_fidelity.py'))
fidelity = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fidelity)


class Typed(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(fidelity.typed('48'), 48)
        self.assertIsInstance(fidelity.typed('48'), int)
        self.assertEqual(fidelity.typed('1e-5'), 1e-5)

    def test_bools_in_every_spelling_pandas_takes(self):
        # AddLayerNorm's csv says `false`: read as a string it is truthy, and the golden took additional_out.
        for text, want in (('True', True), ('TRUE', True), ('true', True),
                           ('False', False), ('FALSE', False), ('false', False)):
            self.assertIs(fidelity.typed(text), want, text)

    def test_everything_else_stays_a_string(self):
        for text in ('None', 'present', '[48, 128, 256]', 'float16', 'yes'):
            self.assertEqual(fidelity.typed(text), text)


class ProjectArgs(unittest.TestCase):
    def test_names_when_every_tensor_has_one_else_positions(self):
        x, b = torch.ones(2, 3), torch.zeros(3)
        with tempfile.TemporaryDirectory() as tmp:
            named = fidelity.project_args([x, b, 1e-5, False], ['x1', 'bias', 'epsilon', 'additionalOut'],
                                          [x + b], tmp)
            self.assertEqual(named[0:2], ['--in', 'x1=' + os.path.join(tmp, 'in0_0.npy')])
            self.assertEqual(named[2:4], ['--in', 'bias=' + os.path.join(tmp, 'in1_0.npy')])
            self.assertEqual(named[4:8], ['--attr', 'epsilon=1e-05', '--attr', 'additionalOut=False'])
            self.assertEqual(named[8:], ['--expect', '#0=' + os.path.join(tmp, 'out0.npy')])
            self.assertTrue(os.path.exists(os.path.join(tmp, 'in1_0.npy')))
            positional = fidelity.project_args([x, b, 1e-5, None, 2], [], [], tmp)
            self.assertEqual(positional, ['--in', '#0=' + os.path.join(tmp, 'in0_0.npy'), '--in',
                                          '#1=' + os.path.join(tmp, 'in1_0.npy'), '--attr', '#0=1e-05',
                                          '--attr', '#2=2'])


    def test_int_lists_as_int64_tensors_for_an_opdef_input(self):
        # Fill's binding hands `dims` to the OpDef as an aclIntArray, which CANN's aclnn makes an int64 input.
        v = torch.tensor([1.5])
        with tempfile.TemporaryDirectory() as tmp:
            args = fidelity.project_args([[128, 3], v, [True, False]], ['dims', 'value', 'flags'], [], tmp,
                                         lists_as_tensors=True)
            self.assertEqual(args[0:2], ['--in', 'dims=' + os.path.join(tmp, 'in0_0.npy')])
            self.assertEqual(args[4:], ['--attr', 'flags=True,False'])  # bools stay an attribute
            dims = fidelity.load_npy(os.path.join(tmp, 'in0_0.npy'))
            self.assertEqual(dims.dtype, torch.int64)
            self.assertEqual(dims.tolist(), [128, 3])

    def test_each_mapping_writes_its_own_files_and_alike_ones_are_one(self):
        # The mappings are built before any runs: a tensor one puts in slot 0 must not overwrite another's.
        v = torch.tensor([1.5])
        with tempfile.TemporaryDirectory() as tmp:
            options = [dict(names=['dims', 'value']), dict(names=['dims', 'value'], lists_as_tensors=True),
                       dict(names=['dims', 'value'], attrs_by_name=False), dict(names=['dims', 'value'])]
            maps = fidelity.mapping_args([[128], v], [], tmp, options)
            self.assertEqual(fidelity.load_npy(maps[0][3].split('=')[1]).tolist(), [1.5])
            self.assertEqual(fidelity.load_npy(maps[1][1].split('=')[1]).tolist(), [128])
            self.assertEqual(fidelity.load_npy(maps[1][3].split('=')[1]).tolist(), [1.5])
            self.assertIs(maps[3], maps[0])


class TaskInputs(unittest.TestCase):
    def test_half_ops_the_cpu_lacks_run_in_float_and_round_back_op_by_op(self):
        # RmsNormGrad's prepare_inputs takes rsqrt of a half tensor, which torch's CPU kernels do not have.
        class Prep:
            @staticmethod
            def get_inputs(row, device=None):
                x = torch.tensor([4.0, 0.25], dtype=torch.float16)
                return [torch.rsqrt(x), torch.rsqrt(x).float() * 3]

        with self.assertRaises(RuntimeError):  # the premise: this torch has no half rsqrt on the CPU
            Prep.get_inputs({})
        inputs, init = fidelity.task_inputs(Prep, {})
        self.assertEqual(init, [])
        self.assertEqual(inputs[0].dtype, torch.float16)
        self.assertEqual(inputs[0].tolist(), [0.5, 2.0])
        self.assertEqual(inputs[1].dtype, torch.float32)
        self.assertEqual(inputs[1].tolist(), [1.5, 6.0])

    def test_other_errors_still_raise(self):
        class Prep:
            @staticmethod
            def get_inputs(row, device=None):
                return [torch.ones(2) + torch.ones(3)]

        with self.assertRaises(RuntimeError):
            fidelity.task_inputs(Prep, {})


class BuiltinAclnn(unittest.TestCase):
    def binding(self, tmp, text):
        with open(os.path.join(tmp, 'pybind.cpp'), 'w') as f:
            f.write(text)
        return fidelity.builtin_aclnn(tmp)

    def test_a_binding_to_a_builtin_operator_takes_its_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            names, outputs, returned, int_arrays = self.binding(
                tmp, 'EXEC_NPU_CMD(aclnnCrossEntropyLoss,\n input, target, w, r, i, l, s, z, a, b, c, d);')
            self.assertEqual(names[:3], ['input', 'target', 'weight'])
            self.assertEqual(outputs, ['loss', 'log_prob', 'zloss', 'lse_for_zloss'])
            self.assertEqual(returned([None] * 7 + [False]), 2)
            self.assertEqual(returned([None] * 7 + [True]), 4)
            self.assertEqual(self.binding(tmp, 'EXEC_NPU_CMD(aclnnLayerNorm, x, s, w, b, e, y, m, r);')[3], [1])

    def test_custom_ops_and_unknown_operators_keep_the_recorded_call(self):
        with tempfile.TemporaryDirectory() as tmp:
            both = 'if (b) { EXEC_NPU_CMD(aclnnCustomOp, x); } else { EXEC_NPU_CMD(aclnnAddLayerNorm, x); }'
            self.assertIsNone(self.binding(tmp, both))
            self.assertIsNone(self.binding(tmp, 'EXEC_NPU_CMD(aclnnNoSuchOp, x);'))
            self.assertIsNone(fidelity.builtin_aclnn(os.path.join(tmp, 'missing')))


class BenchmarkRule(unittest.TestCase):
    def test_an_element_fails_only_over_both_thresholds(self):
        want = torch.tensor([1.0, 100.0, 0.0])
        self.assertEqual(fidelity.check_precision([want], [torch.tensor([1.0005, 100.05, 0.0005])], 1e-3, 1e-3)[0], 1)
        # 0.002 off 1.0: over both; 0.002 off 100: relative 2e-5, under.
        self.assertEqual(fidelity.check_precision([want], [torch.tensor([1.002, 100.0, 0.0])], 1e-3, 1e-3)[0], 0)
        self.assertEqual(fidelity.check_precision([want], [torch.tensor([1.0, 100.002, 0.0])], 1e-3, 1e-3)[0], 1)
        self.assertEqual(fidelity.check_precision([want], [torch.tensor([1.0, float('nan'), 0.0])], 1e-3, 1e-3)[0], 0)
        # zip order: a golden's extra outputs are not compared.
        self.assertEqual(fidelity.check_precision([want, want], [want], 1e-3, 1e-3)[0], 1)

    def test_a_cann_rule_mismatch_is_judged_again_by_the_benchmarks_rule(self):
        with tempfile.TemporaryDirectory() as tmp:
            want = torch.full((4, 2), 3.0)
            path = os.path.join(tmp, 'rstd.npy')
            fidelity.save_npy(path, want * (1 + 4e-4))  # every element 4e-4 off: over CANN's mean, under 1e-3
            stdout = f'  y: f32[4, 2] -> {tmp}/y.npy, matches\n  rstd: f32[4, 2] -> {path}, MISMATCH: ...\n'
            fidelity.save_npy(os.path.join(tmp, 'y.npy'), want)
            self.assertEqual(fidelity.kernel_outputs(stdout), [('y', [f'{tmp}/y.npy']), ('rstd', [path])])
            verdict = fidelity.benchmark_rule(('mismatch', 'rstd: ...'), stdout, None, {}, [want, want],
                                              (1e-3, 1e-3))
            self.assertEqual(verdict[0], 'pass')
            self.assertIn("project run's stricter rule: rstd: ...", verdict[1])
            fidelity.save_npy(path, want * 1.01)
            self.assertEqual(fidelity.benchmark_rule(('mismatch', 'rstd'), stdout, None, {}, [want, want],
                                                     (1e-3, 1e-3)), ('mismatch', 'rstd'))

    def test_a_tasks_own_rule_comes_first(self):
        class Prep:
            @staticmethod
            def custom_check_precision(row, golden, got):
                return fidelity.check_precision(golden, got, row['tol'], row['tol'])
        with tempfile.TemporaryDirectory() as tmp:
            want = torch.ones(3)
            path = os.path.join(tmp, 'y.npy')
            fidelity.save_npy(path, want * 1.005)
            stdout = f'  y: f32[3] -> {path}, MISMATCH: ...\n'
            self.assertEqual(fidelity.benchmark_rule(('mismatch', 'y'), stdout, Prep, {'tol': 0.01}, [want],
                                                     (1e-3, 1e-3))[0], 'pass')
            self.assertEqual(fidelity.benchmark_rule(('mismatch', 'y'), stdout, Prep, {'tol': 0.001}, [want],
                                                     (1e-3, 1e-3))[0], 'mismatch')



class Faults(unittest.TestCase):
    def test_a_pass_with_kernel_fault_warnings_is_pass_faults_naming_them(self):
        err = ('/t/Isamax/answer/0/op_kernel/isamax_aiv.h:88: warning: cross-pipe hazard: ReduceMax ...\n'
               '/t/Isamax/answer/0/op_kernel/isamax_aiv.h:80: note: SetValue on pipe S is here\n')
        self.assertEqual(fidelity.with_faults(('pass', ''), err),
                         ('pass-faults', 'op_kernel/isamax_aiv.h:88: warning: cross-pipe hazard: ReduceMax ...'))
        verdict = fidelity.with_faults(('pass', "by NPUKernelBench's own precision rule"), err)
        self.assertEqual(verdict[0], 'pass-faults')
        self.assertTrue(verdict[1].endswith("(by NPUKernelBench's own precision rule)"))

    def test_host_warnings_and_failures_keep_their_verdict(self):
        host = "/t/op_host/x.cpp:9: warning: InferShape of X gives output 'y' the shape [1], the caller's is [2]\n"
        self.assertEqual(fidelity.with_faults(('pass', ''), host), ('pass', ''))
        kernel = '/t/op_kernel/x.cpp:3: warning: InitBuffer with a length of 0 bytes\n'
        self.assertEqual(fidelity.with_faults(('mismatch', 'y: ...'), kernel), ('mismatch', 'y: ...'))


if __name__ == '__main__':
    unittest.main()

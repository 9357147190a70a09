#include "agent/prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "harness/solution.h"
#include "service/language_reference.h"
#include "support/files.h"

namespace tilecraft::agent {
namespace {

// By number: programs, types, cores and tiles, stages, indexing, data movement, operators, builtins, capacity,
// control flow, examples, grammar, reference semantics. Left out: 1 (lexical details), 12 (diagnostics: the
// feedback carries them), 13 (what the compiler owns).
constexpr const char* kKeptSections[] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "14", "15", "16"};

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string dtypeList(const harness::TensorDecl& t) {
  std::string out;
  for (const std::string& d : t.dtypeNames) out += (out.empty() ? "" : "/") + d;
  return out;
}

std::string fenced(const std::string& info, const std::string& text) {
  std::string body = text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fmt::format("```{}\n{}```\n", info, body);
}

// A doc section as a prompt part: its text, one blank line after it.
void appendSection(std::string& out, std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  out += text + "\n\n";
}

}  // namespace

std::string condensedLanguageReference(std::string_view languageMarkdown) {
  std::vector<service::DocSection> sections = service::splitSections(languageMarkdown);
  std::string out;
  for (const char* number : kKeptSections) {
    auto it = std::find_if(sections.begin(), sections.end(),
                           [&](const service::DocSection& s) { return s.number == number; });
    if (it == sections.end()) {
      throw std::runtime_error(fmt::format("the language reference has no section {}, which the prompt uses", number));
    }
    appendSection(out, it->text);
  }
  return out;
}

std::string hardwareFacts(const perf::ArchSpec& arch) {
  return fmt::format(
      "- {}: {} vector cores (AIV) and {} cube cores (AIC) at {:.2f} GHz.\n"
      "- Unified buffer {} KiB per vector core, L1 {} KiB and L0A/L0B {}/{} KiB, L0C {} KiB per cube core.\n"
      "- UB operands are {}-byte aligned; a vector instruction processes {} bytes per repeat.\n"
      "- HBM {:.0f} GB/s for the chip; one core moves GM to UB at {:.0f} B/cycle, UB to GM at {:.0f} B/cycle; every "
      "copy instruction costs about {:.0f} cycles to start, so copy big contiguous tiles.\n"
      "- Cube peak {:.0f} TFLOPS in f16.\n",
      arch.name, arch.aivCores, arch.aicCores, arch.clockHz / 1e9, arch.ubBytes / 1024, arch.l1Bytes / 1024,
      arch.l0aBytes / 1024, arch.l0bBytes / 1024, arch.l0cBytes / 1024, arch.ubAlign, arch.vectorRepeatBytes,
      arch.hbmStreamBw / 1e9, arch.mte2GmUbBw, arch.mte3UbGmBw, arch.mte2Startup, arch.cubeFlopsPerSecond(1.0) / 1e12);
}

std::vector<ExpertExample> pickExamples(const harness::Task& task, const std::filesystem::path& suiteRoot,
                                        const std::filesystem::path& solutionsRoot, int count) {
  std::vector<ExpertExample> found;
  if (count <= 0) return found;
  auto firstRanks = [](const harness::Task& t) {
    std::vector<size_t> ranks;
    if (t.cases.empty()) return ranks;
    for (const harness::CaseTensor& in : t.cases.front().inputs)
      ranks.push_back(in.shapes.empty() ? 0 : in.shapes[0].size());
    return ranks;
  };
  std::vector<size_t> want = firstRanks(task);
  for (const std::filesystem::path& dir : harness::findTaskDirs(suiteRoot)) {
    harness::TaskLoad load = harness::loadTask(dir);
    if (!load.task || load.task->name == task.name) continue;
    const harness::Task& other = *load.task;
    std::vector<harness::Solution> solutions = harness::findSolutions(solutionsRoot, other.name);
    if (solutions.empty() || solutions.front().kind != "dsl") continue;
    ExpertExample ex;
    ex.task = other.name;
    ex.category = other.category;
    for (const harness::DslKernel& k : solutions.front().kernels) {
      if (std::optional<std::string> text = support::readFile(k.file)) ex.files[k.file.filename().string()] = *text;
    }
    if (ex.files.empty()) continue;
    if (other.category == task.category) ex.score += 4;
    if (other.level == task.level) ex.score += 1;
    std::vector<size_t> ranks = firstRanks(other);
    for (size_t i = 0; i < std::min(ranks.size(), want.size()); ++i) ex.score += ranks[i] == want[i] ? 1 : 0;
    found.push_back(std::move(ex));
  }
  std::stable_sort(found.begin(), found.end(), [](const ExpertExample& a, const ExpertExample& b) {
    return a.score != b.score ? a.score > b.score : a.task < b.task;
  });
  if (found.size() > static_cast<size_t>(count)) found.resize(count);
  return found;
}

std::string systemPrompt(std::string_view reference, std::string_view hardware) {
  return fmt::format(
      "You write kernels for Huawei Ascend NPUs in the Tile DSL, a small Python-like language that Tilecraft compiles "
      "to AscendC. You do not write AscendC or PyTorch.\n\n"
      "Reply with the whole program: one fenced code block per .tile file, each file holding one @kernel. Write one "
      "kernel per dtype combination the task's cases use when one kernel cannot take them all. Name tensor "
      "parameters like the task's inputs and outputs and scalar parameters like its attributes. Leading dims of a "
      "case fold into a kernel's first dim (an (N,) kernel takes any rank as its element count). Explain briefly, "
      "then give the code.\n\n"
      "# The Tile DSL (condensed from its reference)\n\n{}"
      "# The hardware\n\n{}",
      reference, hardware);
}

namespace {

// The task as both modes show it: the operator, its signature, its cases and the golden's source.
std::string taskSection(const harness::Task& task, std::string_view goldenSource, size_t maxCases) {
  std::string out =
      fmt::format("# Task: {} (operator {}, category {}, level {})\n\n", task.name, task.op, task.category, task.level);
  if (!task.desc.empty()) out += task.desc + (task.desc.back() == '\n' ? "\n" : "\n\n");
  out += "## Signature\n\n";
  if (!task.schema.empty()) out += fmt::format("`{}`\n\n", task.schema);
  for (const harness::TensorDecl& t : task.inputs) {
    out += fmt::format("- input `{}`{}: {}\n", t.name, t.optional ? " (optional)" : "", dtypeList(t));
  }
  for (const harness::TensorDecl& t : task.outputs) out += fmt::format("- output `{}`: {}\n", t.name, dtypeList(t));
  for (const harness::AttrDecl& a : task.attrs) {
    out += fmt::format("- attribute `{}` ({}){}\n", a.name, a.type,
                       a.defaultJson.empty() ? std::string{} : " = " + a.defaultJson);
  }
  out += fmt::format("\n## Cases ({} in all{})\n\n", task.cases.size(),
                     task.cases.size() > maxCases ? fmt::format(", the first {}", maxCases) : std::string{});
  for (size_t i = 0; i < task.cases.size() && i < maxCases; ++i) {
    const harness::Case& c = task.cases[i];
    std::string inputs;
    for (size_t k = 0; k < c.inputs.size() && k < task.inputs.size(); ++k) {
      const harness::CaseTensor& in = c.inputs[k];
      std::string what = !in.present         ? "absent"
                         : in.shapes.empty() ? in.dtypeName
                                             : fmt::format("{} {}", in.dtypeName, shapeText(in.shapes[0]));
      inputs += fmt::format("{}{}={}", inputs.empty() ? "" : ", ", task.inputs[k].name, what);
    }
    out += fmt::format("- case {}: {}; attributes {}\n", c.id, inputs, c.attrsJson);
  }
  out += "\n## The golden (PyTorch): your kernel must compute this\n\n" + fenced("python", std::string(goldenSource));
  return out;
}

}  // namespace

std::string taskPrompt(const harness::Task& task, std::string_view goldenSource,
                       const std::vector<ExpertExample>& examples, size_t maxCases) {
  std::string out = taskSection(task, goldenSource, maxCases);
  if (!examples.empty()) out += "\n## Expert solutions of similar tasks\n";
  for (const ExpertExample& ex : examples) {
    out += fmt::format("\n### {} ({})\n\n", ex.task, ex.category);
    for (const auto& [name, text] : ex.files) out += fmt::format("`{}`:\n\n", name) + fenced("tile", text);
  }
  return out;
}

std::string ascendcReference(std::string_view emulatorMarkdown, std::string_view projectsMarkdown) {
  std::string out;
  for (const auto& [doc, name, number] :
       {std::tuple{emulatorMarkdown, "emulator guide", "3"}, std::tuple{projectsMarkdown, "projects guide", "1"}}) {
    std::optional<service::DocSection> section = service::findSection(doc, number);
    if (!section || section->number != number) {
      throw std::runtime_error(fmt::format("the {} has no section {}, which the AscendC prompt uses", name, number));
    }
    appendSection(out, section->text);
  }
  return out;
}

std::string ascendcSystemPrompt(std::string_view reference, std::string_view hardware) {
  return fmt::format(
      "You write custom operators for Huawei Ascend NPUs (Ascend 910B, CANN 8.x) in AscendC, as CANN "
      "custom-operator projects: a tiling header, the host code and the kernel.\n\n"
      "Reply with one fenced ```python block that assigns six strings, as MultiKernelBench asks:\n"
      "- project_json_src: msopgen's operator description, a JSON list of one object with \"op\" (`<Name>Custom`), "
      "\"input_desc\" and \"output_desc\" (name, param_type, format and type per dtype);\n"
      "- host_tiling_src: the tiling data, `BEGIN_TILING_DATA_DEF(<Name>CustomTilingData)` ... "
      "`REGISTER_TILING_DATA_CLASS(<Name>Custom, <Name>CustomTilingData)` in `namespace optiling`;\n"
      "- host_operator_src: includes \"<name>_custom_tiling.h\" (the snake case of the op); the TilingFunc (block "
      "dim from `platform_ascendc::PlatformAscendC`'s core count, the tiling data saved with `SaveToBuffer`, the "
      "workspace sizes), InferShape, and the OpDef class registered with `OP_ADD`;\n"
      "- kernel_src: `extern \"C\" __global__ __aicore__ void <name>_custom(GM_ADDR inputs..., GM_ADDR outputs..., "
      "GM_ADDR workspace, GM_ADDR tiling)` with `GET_TILING_DATA`, TPipe and TQue, CopyIn / Compute / CopyOut; "
      "`DTYPE_<TENSOR>` (the tensor's name in capitals) is each tensor's element type;\n"
      "- python_bind_src and model_src: the torch_npu binding (`EXEC_NPU_CMD`) and `ModelNew` (kept, not run "
      "here).\n"
      "Write each as a plain string literal (r\"\"\"...\"\"\"), never an f-string or an expression: the submission "
      "is read without being run. The OpDef's inputs and outputs come in the order of the task's signature, each "
      "taking every dtype the cases use (a DataType list is a column per dtype combination), its attributes named "
      "as the task's. Explain briefly, then give the code.\n\n"
      "# The AscendC API this target provides\n\n{}"
      "# The hardware\n\n{}",
      reference, hardware);
}

std::string ascendcTaskPrompt(const harness::Task& task, std::string_view goldenSource, std::string_view example,
                              size_t maxCases) {
  std::string out = taskSection(task, goldenSource, maxCases);
  if (!example.empty()) {
    out += "\n## A worked example: tasks/level1/add (z = x + y, float16 and float32)\n\n" +
           fenced("python", std::string(example));
  }
  return out;
}

std::string compileFeedback(std::string_view diagnostics) {
  return fmt::format(
      "The compiler refused the program:\n\n```\n{}```\n\nFix every error and send the whole program again.",
      diagnostics);
}

std::string formatFeedback(std::string_view problem, Mode mode) {
  if (mode == Mode::AscendC) {
    return fmt::format(
        "I could not use your reply: {}. Send the whole submission in one fenced ```python block assigning the six "
        "strings.",
        problem);
  }
  return fmt::format(
      "I could not use your reply: {}. Send the whole program in fenced code blocks, one per .tile "
      "file, each with its @kernel.",
      problem);
}

std::string verdictFeedback(const service::Verdict& v, double targetLimitScore) {
  if (!v.compiled || !v.correct) {
    for (const service::CaseVerdict& c : v.cases) {
      if (c.correct) continue;
      if (!c.compiled) {
        return fmt::format(
            "The program does not build ({}):\n\n```\n{}\n```\n\nFix it and send the whole program again.", c.failure,
            c.message);
      }
      return fmt::format(
          "The program built, but case {} failed ({}): {}\n{} of {} cases passed. Fix the kernel and send the whole "
          "program again.",
          c.caseId, c.failure, c.message, v.casesPassed, v.casesTotal);
    }
    return fmt::format("The program failed: {}\nFix it and send the whole program again.", v.diagnostics);
  }
  std::string out = fmt::format(
      "Every case is correct. Speed: limit score {:.2f} (1 = the hardware limit, 0.5 = PyTorch eager), {:.2f}x "
      "eager. The target is {:.2f}.\n",
      v.limitScore, v.speedup, targetLimitScore);
  const service::CaseVerdict* slowest = nullptr;
  for (const service::CaseVerdict& c : v.cases) {
    if (c.limitUs > 0 && (!slowest || c.simUs / c.limitUs > slowest->simUs / slowest->limitUs)) slowest = &c;
  }
  if (slowest) {
    out += fmt::format(
        "The slowest case against its limit is {}: {:.2f} us simulated, {:.2f} us at the limit, "
        "bottleneck pipe {}.\n",
        slowest->caseId, slowest->simUs, slowest->limitUs,
        slowest->bottleneck.empty() ? "unknown" : slowest->bottleneck);
  }
  return out +
         "Make it faster (bigger tiles, fewer passes over the data, more cores busy) and send the whole "
         "program again; keep it correct.";
}

}  // namespace tilecraft::agent

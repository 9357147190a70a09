// Bottom-up rendering of a scalar expression tree without recursion. A scalar tree is as deep as the longest
// operator chain of the DSL source (up to the parser's 20,000 operations, dsl/parser.h), so the printer, the
// verifier and the emitter walk it with an explicit stack: under a sanitizer's larger frames a recursion that
// deep would overflow the stack.
#pragma once

#include <iterator>
#include <utility>
#include <vector>

#include "ir/check.h"
#include "ir/ir.h"

namespace tilecraft::ir {

/// Calls `render(node, args)` for every node of the tree at `root`, children first, where `args` holds the
/// results of the node's `args` in order; returns the root's result.
template <typename Result, typename Render>
Result foldScalar(const Kernel& k, NodeId root, Render render) {
  struct Step {
    NodeId id;
    bool childrenDone;
  };
  std::vector<Step> steps{{root, false}};
  std::vector<Result> results;
  while (!steps.empty()) {
    Step step = steps.back();
    steps.pop_back();
    TILECRAFT_CHECK(step.id < k.nodes.size(), "scalar id out of range");
    const Node& n = k.node(step.id);
    if (!step.childrenDone && !n.args.empty()) {
      steps.push_back({step.id, true});
      for (size_t i = n.args.size(); i-- > 0;) steps.push_back({n.args[i], false});
      continue;
    }
    size_t count = step.childrenDone ? n.args.size() : 0;
    std::vector<Result> args(std::make_move_iterator(results.end() - static_cast<std::ptrdiff_t>(count)),
                             std::make_move_iterator(results.end()));
    results.resize(results.size() - count);
    results.push_back(render(n, args));
  }
  return std::move(results.back());
}

}  // namespace tilecraft::ir

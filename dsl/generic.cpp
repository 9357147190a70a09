#include "dsl/generic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "dsl/builtins.h"

namespace tilecraft::dsl {

namespace {

bool isCallOf(const Ast& ast, NodeId value, const char* name) {
  return ast.kind(value) == NodeKind::Call && ast.kind(ast.callee(value)) == NodeKind::Name &&
         ast.node(ast.callee(value)).name == name;
}

std::string choiceList(const std::vector<DType>& choices) {
  std::vector<std::string> names;
  for (DType d : choices) names.push_back(dtypeName(d));
  return fmt::format("{}", fmt::join(names, ", "));
}

std::optional<int64_t> integerLiteral(const Ast& ast, NodeId id) {
  const Node& n = ast.node(id);
  if (n.kind == NodeKind::IntLit) return n.intValue;
  if (n.kind == NodeKind::Unary && n.op == OpKind::Neg && ast.kind(n.kids[0]) == NodeKind::IntLit) {
    return -ast.node(n.kids[0]).intValue;
  }
  return std::nullopt;
}

std::optional<int64_t> parseInteger(const std::string& text) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// What a module-level condition computes with: dtypes, integers and truth values.
struct Value {
  enum class Kind { DType, Int, Bool } kind = Kind::Int;
  DType dtype = DType::F32;
  int64_t number = 0;
};

const char* kindName(Value::Kind k) {
  return k == Value::Kind::DType ? "a dtype" : k == Value::Kind::Int ? "an integer" : "a condition";
}

class Instantiator {
 public:
  Instantiator(const Ast& ast, const std::vector<GenericParam>& params, const Instantiation& inst,
               support::DiagnosticEngine& diagnostics)
      : ast_(ast), out_(ast), diag_(diagnostics) {
    for (const GenericParam& p : params) params_[p.def] = &p;
    for (const auto& [name, value] : inst.values) bound_[name] = value;
  }

  Ast run() {
    if (ast_.root() == kNoNode) return out_;
    std::vector<NodeId> items;
    std::map<std::string, NodeId> defined;
    for (NodeId item : ast_.items(ast_.root())) {
      if (ast_.kind(item) != NodeKind::ConstDef) {
        items.push_back(item);
        continue;
      }
      const std::string& name = ast_.node(item).name;
      bool generic = resolve(item);
      if (auto d = defined.find(name); d != defined.end() && (generic || dtypes_.count(name))) {
        diag_.error(ast_.span(item), fmt::format("'{}' is already defined", name))
            .note(ast_.span(d->second), "defined here");
      }
      defined.emplace(name, item);
      if (!generic || !dtypes_.count(name)) items.push_back(item);
    }
    out_.node(out_.root()).kids = items;
    if (dtypes_.empty()) return out_;
    renameDTypeUses();
    return out_;
  }

 private:
  // Binds one module-level definition; true when it is generic (a parameter or a dtype definition).
  bool resolve(NodeId item) {
    const std::string& name = ast_.node(item).name;
    NodeId value = ast_.child(item, 0);
    if (auto p = params_.find(item); p != params_.end()) {
      const GenericParam& param = *p->second;
      const std::string& text = bound_.at(name);
      if (param.isDType) {
        dtypes_[name] = *dtypeFromName(text);
      } else {
        int64_t v = *parseInteger(text);
        ints_[name] = v;
        Node& lit = out_.node(value);
        lit.kind = NodeKind::IntLit;
        lit.kids.clear();
        lit.intValue = v;
        lit.name = text;
      }
      return true;
    }
    bool conditional = false;
    while (ast_.kind(value) == NodeKind::IfExp) {
      conditional = true;
      std::optional<Value> cond = evaluate(ast_.child(value, 1));
      if (!cond) return true;
      if (cond->kind != Value::Kind::Bool) {
        diag_
            .error(ast_.span(ast_.child(value, 1)),
                   fmt::format("the condition is {}, not a comparison", kindName(cond->kind)))
            .hint("compare dtype parameters: C = f32 if T == bf16 else T");
        return true;
      }
      value = ast_.child(value, cond->number ? 0 : 2);
    }
    const Node& v = ast_.node(value);
    if (v.kind == NodeKind::Name) {
      if (auto d = dtypes_.find(v.name); d != dtypes_.end()) {
        dtypes_[name] = d->second;
        return true;
      }
      if (auto d = dtypeFromName(v.name)) {
        dtypes_[name] = *d;
        return true;
      }
    }
    if (auto i = integerLiteral(ast_, value)) ints_[name] = *i;
    out_.node(item).kids[0] = value;
    return conditional;
  }

  std::optional<Value> evaluate(NodeId id) {
    const Node& n = ast_.node(id);
    switch (n.kind) {
      case NodeKind::Name: {
        if (auto d = dtypes_.find(n.name); d != dtypes_.end()) return Value{Value::Kind::DType, d->second, 0};
        if (auto i = ints_.find(n.name); i != ints_.end()) return Value{Value::Kind::Int, DType::F32, i->second};
        if (auto d = dtypeFromName(n.name)) return Value{Value::Kind::DType, *d, 0};
        diag_
            .error(n.span,
                   fmt::format("'{}' is not a dtype, a dtype parameter or an integer constant defined above", n.name))
            .hint("a module-level condition compares dtype and const parameters declared before it");
        return std::nullopt;
      }
      case NodeKind::IntLit: return Value{Value::Kind::Int, DType::F32, n.intValue};
      case NodeKind::BoolLit: return Value{Value::Kind::Bool, DType::F32, n.intValue};
      case NodeKind::Unary: {
        std::optional<Value> a = evaluate(n.kids[0]);
        if (!a) return a;
        if (n.op == OpKind::Not && a->kind == Value::Kind::Bool)
          return Value{Value::Kind::Bool, DType::F32, !a->number};
        if (n.op == OpKind::Neg && a->kind == Value::Kind::Int) return Value{Value::Kind::Int, DType::F32, -a->number};
        break;
      }
      case NodeKind::Logical: {
        std::optional<Value> a = evaluate(n.kids[0]);
        std::optional<Value> b = evaluate(n.kids[1]);
        if (!a || !b) return std::nullopt;
        if (a->kind != Value::Kind::Bool || b->kind != Value::Kind::Bool) break;
        bool r = n.op == OpKind::And ? a->number && b->number : a->number || b->number;
        return Value{Value::Kind::Bool, DType::F32, r};
      }
      case NodeKind::Compare: {
        std::optional<Value> a = evaluate(n.kids[0]);
        if (!a) return a;
        std::vector<NodeId> rhs = {n.kids[1]};
        if (n.op == OpKind::In) {
          if (ast_.kind(n.kids[1]) != NodeKind::Tuple) {
            diag_.error(ast_.span(n.kids[1]), "'in' needs a parenthesised tuple of choices")
                .hint("write T in (f16, bf16)");
            return std::nullopt;
          }
          rhs.assign(ast_.node(n.kids[1]).kids.begin(), ast_.node(n.kids[1]).kids.end());
        }
        bool any = false;
        for (NodeId r : rhs) {
          std::optional<Value> b = evaluate(r);
          if (!b) return b;
          if (a->kind != b->kind || a->kind == Value::Kind::Bool) {
            diag_.error(n.span, fmt::format("cannot compare {} with {}", kindName(a->kind), kindName(b->kind)));
            return std::nullopt;
          }
          if (a->kind == Value::Kind::DType && n.op != OpKind::Eq && n.op != OpKind::Ne && n.op != OpKind::In) {
            diag_.error(n.span, fmt::format("dtypes compare only with ==, != and in (got '{}')", opSpelling(n.op)));
            return std::nullopt;
          }
          int64_t x = a->kind == Value::Kind::DType ? static_cast<int64_t>(a->dtype) : a->number;
          int64_t y = b->kind == Value::Kind::DType ? static_cast<int64_t>(b->dtype) : b->number;
          switch (n.op) {
            case OpKind::Eq:
            case OpKind::In: any = any || x == y; break;
            case OpKind::Ne: any = x != y; break;
            case OpKind::Lt: any = x < y; break;
            case OpKind::Le: any = x <= y; break;
            case OpKind::Gt: any = x > y; break;
            case OpKind::Ge: any = x >= y; break;
            default: break;
          }
        }
        return Value{Value::Kind::Bool, DType::F32, any};
      }
      default: break;
    }
    diag_.error(n.span, "a module-level condition may only compare dtype and const parameters")
        .hint("write C = f32 if T == bf16 else T, or T in (f16, bf16)");
    return std::nullopt;
  }

  // Every use of a dtype parameter or definition names the dtype; a local of that name would hide it.
  void renameDTypeUses() {
    std::set<NodeId> targets;
    for (NodeId id = 0; id < out_.size(); ++id) {
      const Node& n = out_.node(id);
      if (n.kind == NodeKind::Assign || n.kind == NodeKind::AugAssign) targets.insert(n.kids[0]);
      if (n.kind == NodeKind::For) {
        for (NodeId t : out_.forTargets(id)) targets.insert(t);
      }
      if (n.kind == NodeKind::Param && dtypes_.count(n.name)) {
        diag_.error(n.span, fmt::format("parameter '{}' has the name of a module-level dtype", n.name))
            .hint("rename the parameter or the dtype");
      }
    }
    for (NodeId id = 0; id < out_.size(); ++id) {
      Node& n = out_.node(id);
      if (n.kind != NodeKind::Name) continue;
      auto d = dtypes_.find(n.name);
      if (d == dtypes_.end()) continue;
      if (targets.count(id)) {
        diag_.error(n.span, fmt::format("'{}' is a module-level dtype and cannot be assigned", n.name))
            .hint("choose another name");
        continue;
      }
      n.name = dtypeName(d->second);
    }
  }

  const Ast& ast_;
  Ast out_;
  support::DiagnosticEngine& diag_;
  std::map<NodeId, const GenericParam*> params_;
  std::map<std::string, std::string> bound_;
  std::map<std::string, DType> dtypes_;  // dtype parameters and definitions
  std::map<std::string, int64_t> ints_;  // const parameters and integer constants, for conditions
};

}  // namespace

std::string Instantiation::str() const {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) parts.push_back(fmt::format("{}={}", name, value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<std::string> Instantiation::flags() const {
  std::vector<std::string> out;
  for (const auto& [name, value] : values) out.push_back(fmt::format("{}={}", name, value));
  return out;
}

std::vector<GenericParam> genericParams(const Ast& ast, support::DiagnosticEngine& diagnostics) {
  std::vector<GenericParam> out;
  if (ast.root() == kNoNode) return out;
  for (NodeId item : ast.items(ast.root())) {
    if (ast.kind(item) != NodeKind::ConstDef) continue;
    NodeId value = ast.child(item, 0);
    bool isDType = isCallOf(ast, value, "dtype");
    if (!isDType && !isCallOf(ast, value, "const")) continue;
    GenericParam p;
    p.def = item;
    p.name = ast.node(item).name;
    p.isDType = isDType;
    bool ok = true;
    if (findBuiltin(p.name) || dtypeFromName(p.name)) {
      diagnostics.error(ast.span(item), fmt::format("'{}' is a builtin name and cannot be redefined", p.name))
          .hint("choose another name");
      ok = false;
    }
    auto args = ast.callArgs(value);
    if (isDType) {
      for (NodeId a : args) {
        std::optional<DType> d;
        if (ast.kind(a) == NodeKind::Name) d = dtypeFromName(ast.node(a).name);
        if (!d || *d == DType::Bool) {
          diagnostics.error(ast.span(a), "dtype() takes the dtypes the parameter may be")
              .hint(fmt::format("{} = dtype(f16, bf16, f32)", p.name));
          ok = false;
        } else if (std::find(p.choices.begin(), p.choices.end(), *d) != p.choices.end()) {
          diagnostics.error(ast.span(a), fmt::format("{} is listed twice", dtypeName(*d)));
          ok = false;
        } else {
          p.choices.push_back(*d);
        }
      }
      if (args.empty()) {
        diagnostics.error(ast.span(value), fmt::format("dtype parameter '{}' needs at least one dtype", p.name))
            .hint(fmt::format("{} = dtype(f16, bf16, f32)", p.name));
        ok = false;
      }
    } else {
      if (args.size() > 1 || (args.size() == 1 && !integerLiteral(ast, args[0]))) {
        diagnostics.error(ast.span(value), "const() takes at most one argument, an integer default")
            .hint(fmt::format("{} = const() or {} = const(3)", p.name, p.name));
        ok = false;
      } else if (args.size() == 1) {
        p.defaultValue = integerLiteral(ast, args[0]);
      }
    }
    if (ok) out.push_back(std::move(p));
  }
  return out;
}

std::vector<Instantiation> instantiations(const Ast& ast, const std::vector<GenericParam>& params,
                                          const std::vector<std::string>& bindings,
                                          support::DiagnosticEngine& diagnostics, std::string* usageError) {
  std::map<std::string, std::string> given;
  std::vector<std::string> names;
  for (const GenericParam& p : params) names.push_back(p.name);
  std::string declared = names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
  for (const std::string& b : bindings) {
    size_t eq = b.find('=');
    if (eq == std::string::npos || eq == 0) {
      *usageError = fmt::format("--param {}: expected NAME=VALUE, e.g. --param T=f16", b);
      return {};
    }
    std::string name = b.substr(0, eq);
    std::string value = b.substr(eq + 1);
    auto p = std::find_if(params.begin(), params.end(), [&](const GenericParam& g) { return g.name == name; });
    if (p == params.end()) {
      *usageError =
          fmt::format("--param {}: the program declares no parameter '{}' (its parameters: {})", b, name, declared);
      return {};
    }
    if (given.count(name)) {
      *usageError = fmt::format("--param {}: '{}' is bound twice", b, name);
      return {};
    }
    if (p->isDType && !dtypeFromName(value)) {
      *usageError = fmt::format("--param {}: '{}' is not a dtype (f16, bf16, f32, i8, u8, i16, i32, i64)", b, value);
      return {};
    }
    if (!p->isDType && !parseInteger(value)) {
      *usageError = fmt::format("--param {}: '{}' is a const parameter and takes an integer", b, name);
      return {};
    }
    given[name] = value;
  }
  std::vector<Instantiation> out = {Instantiation{}};
  bool ok = true;
  for (const GenericParam& p : params) {
    std::vector<std::string> values;
    auto g = given.find(p.name);
    if (g != given.end()) {
      if (p.isDType) {
        DType d = *dtypeFromName(g->second);
        if (std::find(p.choices.begin(), p.choices.end(), d) == p.choices.end()) {
          diagnostics
              .error(ast.span(p.def), fmt::format("{}={} is not one of the choices of '{}' ({})", p.name, g->second,
                                                  p.name, choiceList(p.choices)))
              .hint(fmt::format("bind it to one of them, e.g. --param {}={}", p.name, dtypeName(p.choices[0])));
          ok = false;
        }
      }
      values.push_back(g->second);
    } else if (p.isDType) {
      for (DType d : p.choices) values.push_back(dtypeName(d));
    } else if (p.defaultValue) {
      values.push_back(std::to_string(*p.defaultValue));
    } else {
      diagnostics.error(ast.span(p.def), fmt::format("const parameter '{}' has no default and is not bound", p.name))
          .hint(fmt::format("pass --param {}=VALUE, or give it a default: {} = const(3)", p.name, p.name));
      ok = false;
      continue;
    }
    if (out.size() * values.size() > kMaxInstantiations) {
      diagnostics
          .error(ast.span(p.def), fmt::format("the parameters up to '{}' have {} instantiations (the limit is {})",
                                              p.name, out.size() * values.size(), kMaxInstantiations))
          .hint("bind some parameters with --param NAME=VALUE, or declare fewer choices");
      return {};
    }
    std::vector<Instantiation> next;
    for (const Instantiation& inst : out) {
      for (const std::string& v : values) {
        Instantiation i = inst;
        i.values.emplace_back(p.name, v);
        next.push_back(std::move(i));
      }
    }
    out = std::move(next);
  }
  if (!ok) return {};
  return out;
}

bool dropSameDTypeCasts(Ast& ast, const SemaResult& sema) {
  bool changed = false;
  // A node's operands come before it in the list, so an inner cast is replaced before the one around it.
  for (NodeId id = 0; id < ast.size(); ++id) {
    if (ast.kind(id) != NodeKind::Call || sema.calls[id] != Builtin::Cast || ast.callArgs(id).size() != 2) continue;
    NodeId x = ast.callArgs(id)[0];
    const Type& from = sema.types[x];
    const Type& to = sema.types[id];
    if (from.kind != TypeKind::Buffer || to.kind != TypeKind::Buffer || from.dtype != to.dtype) continue;
    Node operand = ast.node(x);
    ast.node(id) = std::move(operand);
    changed = true;
  }
  return changed;
}

std::string unboundParams(const std::vector<GenericParam>& params, const std::vector<std::string>& bindings) {
  std::vector<std::string> open;
  for (const GenericParam& p : params) {
    bool given = std::any_of(bindings.begin(), bindings.end(),
                             [&](const std::string& b) { return b.rfind(p.name + "=", 0) == 0; });
    // A const parameter has its default and a one-dtype parameter its dtype: neither needs binding.
    if (given || !p.isDType || p.choices.size() < 2) continue;
    open.push_back(fmt::format("{} ({})", p.name, choiceList(p.choices)));
  }
  return fmt::format("{}", fmt::join(open, ", "));
}

Ast instantiateOne(const Ast& ast, const std::vector<std::string>& bindings, support::DiagnosticEngine& diagnostics,
                   std::string* usageError) {
  std::vector<GenericParam> params = genericParams(ast, diagnostics);
  if (diagnostics.hasErrors()) return Ast{};
  std::vector<Instantiation> insts = instantiations(ast, params, bindings, diagnostics, usageError);
  if (!usageError->empty() || diagnostics.hasErrors()) return Ast{};
  if (insts.size() != 1) {
    *usageError = fmt::format(
        "the program has {} instantiations and this command runs one: bind {} with --param "
        "NAME=VALUE",
        insts.size(), unboundParams(params, bindings));
    return Ast{};
  }
  return instantiate(ast, params, insts[0], diagnostics);
}

Ast instantiate(const Ast& ast, const std::vector<GenericParam>& params, const Instantiation& inst,
                support::DiagnosticEngine& diagnostics) {
  return Instantiator(ast, params, inst, diagnostics).run();
}

}  // namespace tilecraft::dsl

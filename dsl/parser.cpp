#include "dsl/parser.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <functional>

namespace tilecraft::dsl {
namespace {

// Thrown to abandon the current statement after a syntax error; caught at statement level.
struct SyntaxError {};

// Counts one level of nesting for the life of a parsing function and fails past the limit. Every recursion of
// the parser goes through one of these, so its stack depth (and the depth of every tree the later stages walk
// recursively) is bounded; only left-associative operator chains grow the tree without nesting, and every
// walker iterates over those.
class NestingGuard {
 public:
  NestingGuard(uint32_t& depth, uint32_t limit, const std::function<void(uint32_t)>& tooDeep) : depth_(depth) {
    if (depth_ + 1 > limit) tooDeep(depth_ + 1);  // throws before the count is taken: no destructor will run
    ++depth_;
  }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  uint32_t& depth_;
};

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, support::DiagnosticEngine& diagnostics)
      : tokens_(tokens), diagnostics_(diagnostics) {}

  // file := (NEWLINE | const_def | kernel_def)* EOF
  Ast run() {
    Node module;
    module.kind = NodeKind::Module;
    module.span = peek().span;
    while (!at(TokenKind::EndOfFile)) {
      // A dedent at module level only follows an indentation error that was already reported.
      if (accept(TokenKind::Newline) || accept(TokenKind::Dedent)) continue;
      size_t before = pos_;
      try {
        NodeId item = parseTopLevel();
        if (item != kNoNode) module.kids.push_back(item);
      } catch (const SyntaxError&) {
        synchronize();
      }
      if (pos_ == before) advance();  // never loop on a token nobody consumes
    }
    if (!module.kids.empty()) module.span = module.span.to(ast_.span(module.kids.back()));
    ast_.setRoot(ast_.add(std::move(module)));
    return std::move(ast_);
  }

 private:
  // --- token helpers -------------------------------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  bool at(TokenKind kind) const { return peek().kind == kind; }
  const Token& advance() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool accept(TokenKind kind) {
    if (!at(kind)) return false;
    advance();
    return true;
  }
  const Token& expect(TokenKind kind, const char* context) {
    if (!at(kind)) {
      fail(fmt::format("expected {} {}, found {}", tokenKindText(kind), context, describe(peek())));
    }
    return advance();
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::Name: return fmt::format("'{}'", t.text);
      case TokenKind::Int:
      case TokenKind::Float: return fmt::format("number {}", t.text);
      default: return tokenKindText(t.kind);
    }
  }
  [[noreturn]] void fail(std::string message, std::string hint = {}) {
    const Token& t = peek();
    // A missing token at the end of a line is reported right after the last token, not at the line break
    // (which may sit after a trailing comment).
    support::Span at = t.span;
    bool lineEnd = t.kind == TokenKind::Newline || t.kind == TokenKind::Dedent || t.kind == TokenKind::EndOfFile;
    if (lineEnd && pos_ > 0) at = support::Span{t.span.file, tokens_[pos_ - 1].span.end, tokens_[pos_ - 1].span.end};
    // Lexical errors were already reported by the lexer; a second report would be a cascade.
    if (t.kind != TokenKind::Error) {
      auto d = diagnostics_.error(at, std::move(message));
      if (!hint.empty()) d.hint(std::move(hint));
    }
    throw SyntaxError{};
  }
  // Skips the rest of the broken statement: to the end of its line, and over any block it opened.
  void synchronize() {
    while (!at(TokenKind::EndOfFile) && !at(TokenKind::Newline)) advance();
    accept(TokenKind::Newline);
    if (at(TokenKind::Indent)) {
      int depth = 0;
      do {
        if (at(TokenKind::Indent)) ++depth;
        if (at(TokenKind::Dedent)) --depth;
        advance();
      } while (depth > 0 && !at(TokenKind::EndOfFile));
    }
  }

  NodeId add(NodeKind kind, support::Span span, std::vector<NodeId> kids = {}) {
    Node n;
    n.kind = kind;
    n.span = span;
    n.kids = std::move(kids);
    return ast_.add(std::move(n));
  }
  support::Span spanOf(NodeId id) const { return ast_.span(id); }

  // --- declarations ----------------------------------------------------------------------------------------
  // top := const_def | kernel_def
  NodeId parseTopLevel() {
    if (at(TokenKind::At) || at(TokenKind::KwDef)) return parseKernel();
    if (at(TokenKind::Name) && peek(1).kind == TokenKind::Assign) return parseConstDef();
    if (at(TokenKind::Indent)) fail("unexpected indent");
    fail(
        fmt::format("expected a kernel definition or 'NAME = value' at module level, found {}", describe(peek())),
        "module level holds only dimension and constant definitions ('N = dim()', 'TILE = 256') and @kernel functions");
  }

  // const_def := NAME '=' expr NEWLINE
  NodeId parseConstDef() {
    const Token& name = advance();
    advance();  // '='
    NodeId value = parseExpr();
    expectLineEnd();
    NodeId id = add(NodeKind::ConstDef, name.span.to(spanOf(value)), {value});
    ast_.node(id).name = name.text;
    return id;
  }

  // kernel_def := decorator* 'def' NAME '(' [param (',' param)* [',']] ')' ['->' expr] ':' block
  // decorator  := '@' NAME ['(' args ')'] NEWLINE
  NodeId parseKernel() {
    std::vector<NodeId> kids;
    support::Span start = peek().span;
    uint32_t decorators = 0;
    while (at(TokenKind::At)) {
      advance();
      const Token& name = expect(TokenKind::Name, "after '@'");
      NodeId deco = add(NodeKind::Decorator, name.span);
      ast_.node(deco).name = name.text;
      if (accept(TokenKind::LParen)) {
        ast_.node(deco).count = 1;
        std::vector<NodeId> args = parseArgs(TokenKind::RParen);
        const Token& close = expect(TokenKind::RParen, "to close the decorator arguments");
        ast_.node(deco).kids = std::move(args);
        ast_.node(deco).span = name.span.to(close.span);
      }
      expect(TokenKind::Newline, "after a decorator");
      kids.push_back(deco);
      ++decorators;
    }
    expect(TokenKind::KwDef, "to start a kernel");
    const Token& name = expect(TokenKind::Name, "after 'def'");
    expect(TokenKind::LParen, "after the kernel name");
    while (!at(TokenKind::RParen)) {
      kids.push_back(parseParam());
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RParen, "to close the parameter list");
    if (accept(TokenKind::Arrow)) parseExpr();  // a return annotation is allowed and ignored (kernels return nothing)
    expect(TokenKind::Colon, "after the kernel signature");
    uint32_t split = static_cast<uint32_t>(kids.size());
    statements_ = 0;
    parseBlock(kids);
    if (statements_ > kMaxKernelStatements) {
      // Compile time grows with the statements of a kernel (about 0.3 ms each); the limit keeps it in seconds.
      diagnostics_
          .error(firstStatementOverLimit_, fmt::format("kernel '{}' has {} statements (the limit is {})", name.text,
                                                       statements_, kMaxKernelStatements))
          .hint("split the work over several kernels, or use a loop instead of repeating statements");
    }
    NodeId id = add(NodeKind::Kernel, start.to(name.span), std::move(kids));
    Node& n = ast_.node(id);
    n.name = name.text;
    n.count = decorators;
    n.split = split;
    return id;
  }

  // param := NAME ':' expr ['=' expr]
  NodeId parseParam() {
    const Token& name = expect(TokenKind::Name, "as a parameter name");
    if (!at(TokenKind::Colon)) {
      fail(fmt::format("parameter '{}' needs a type annotation", name.text),
           "write 'x: Tensor[f16, (M, N)]' for a tensor or 'alpha: f32' for a scalar attribute");
    }
    advance();
    std::vector<NodeId> kids{parseExpr()};
    if (accept(TokenKind::Assign)) kids.push_back(parseExpr());
    support::Span span = name.span.to(spanOf(kids.back()));
    NodeId id = add(NodeKind::Param, span, std::move(kids));
    ast_.node(id).name = name.text;
    return id;
  }

  // block := NEWLINE INDENT stmt+ DEDENT | simple_stmt NEWLINE
  void parseBlock(std::vector<NodeId>& out) {
    NestingGuard guard(blockDepth_, kMaxBlockNesting, [&](uint32_t depth) { blocksTooDeep(depth); });
    if (!at(TokenKind::Newline)) {
      parseStatementInto(out);  // a one-line block: `if c: pass`
      return;
    }
    advance();
    if (!at(TokenKind::Indent)) fail("expected an indented block");
    advance();
    while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile)) {
      if (accept(TokenKind::Newline)) continue;
      size_t before = pos_;
      try {
        parseStatementInto(out);
      } catch (const SyntaxError&) {
        synchronize();
      }
      if (pos_ == before) advance();
    }
    accept(TokenKind::Dedent);
  }

  [[noreturn]] void blocksTooDeep(uint32_t depth) {
    fail(fmt::format("blocks nested too deeply: {} levels (the limit is {})", depth, kMaxBlockNesting),
         "flatten the conditions or the loops; each 'elif' counts as one more level");
  }

  // --- statements ------------------------------------------------------------------------------------------
  // stmt := for_stmt | with_stmt | if_stmt | simple_stmt NEWLINE
  void parseStatementInto(std::vector<NodeId>& out) {
    if (++statements_ == kMaxKernelStatements + 1) firstStatementOverLimit_ = peek().span;
    switch (peek().kind) {
      case TokenKind::KwFor: out.push_back(parseFor()); return;
      case TokenKind::KwWith: out.push_back(parseWith()); return;
      case TokenKind::KwIf: out.push_back(parseIf()); return;
      case TokenKind::Indent: fail("unexpected indent");
      case TokenKind::KwDef:
      case TokenKind::At: fail("kernels cannot be nested", "define every @kernel at module level");
      case TokenKind::KwElse:
      case TokenKind::KwElif: fail(fmt::format("{} without a matching 'if'", tokenKindText(peek().kind)));
      default: break;
    }
    out.push_back(parseSimple());
    expectLineEnd();
  }

  void expectLineEnd() {
    if (at(TokenKind::Newline)) {
      advance();
      return;
    }
    if (at(TokenKind::Dedent) || at(TokenKind::EndOfFile)) return;
    fail(fmt::format("expected end of line, found {}", describe(peek())));
  }

  // simple_stmt := 'pass' | expr ['=' expr | augop expr]
  // augop       := '+=' | '-=' | '*=' | '/='
  NodeId parseSimple() {
    if (at(TokenKind::KwPass)) return add(NodeKind::Pass, advance().span);
    NodeId lhs = parseExpr();
    if (accept(TokenKind::Assign)) {
      NodeId rhs = parseExpr();
      if (at(TokenKind::Assign)) fail("chained assignment is not supported", "assign each name separately");
      return add(NodeKind::Assign, spanOf(lhs).to(spanOf(rhs)), {lhs, rhs});
    }
    OpKind op = OpKind::None;
    switch (peek().kind) {
      case TokenKind::PlusAssign: op = OpKind::Add; break;
      case TokenKind::MinusAssign: op = OpKind::Sub; break;
      case TokenKind::StarAssign: op = OpKind::Mul; break;
      case TokenKind::SlashAssign: op = OpKind::Div; break;
      default: break;
    }
    if (op != OpKind::None) {
      advance();
      NodeId rhs = parseExpr();
      NodeId id = add(NodeKind::AugAssign, spanOf(lhs).to(spanOf(rhs)), {lhs, rhs});
      ast_.node(id).op = op;
      return id;
    }
    return add(NodeKind::ExprStmt, spanOf(lhs), {lhs});
  }

  // for_stmt := 'for' NAME (',' NAME)* 'in' expr ':' block
  NodeId parseFor() {
    support::Span start = advance().span;
    std::vector<NodeId> kids;
    bool paren = accept(TokenKind::LParen);
    do {
      const Token& name = expect(TokenKind::Name, "as a loop variable");
      NodeId target = add(NodeKind::Name, name.span);
      ast_.node(target).name = name.text;
      kids.push_back(target);
    } while (accept(TokenKind::Comma));
    if (paren) expect(TokenKind::RParen, "to close the loop variables");
    uint32_t targets = static_cast<uint32_t>(kids.size());
    expect(TokenKind::KwIn, "after the loop variables");
    NodeId iter = parseExpr();
    kids.push_back(iter);
    expect(TokenKind::Colon, "after the for header");
    uint32_t split = static_cast<uint32_t>(kids.size());
    parseBlock(kids);
    NodeId id = add(NodeKind::For, start.to(spanOf(iter)), std::move(kids));
    ast_.node(id).count = targets;
    ast_.node(id).split = split;
    return id;
  }

  // with_stmt := 'with' expr ':' block
  NodeId parseWith() {
    support::Span start = advance().span;
    NodeId context = parseExpr();
    expect(TokenKind::Colon, "after the with header");
    std::vector<NodeId> kids{context};
    parseBlock(kids);
    return add(NodeKind::With, start.to(spanOf(context)), std::move(kids));
  }

  // if_stmt := 'if' expr ':' block ('elif' expr ':' block)* ['else' ':' block]
  NodeId parseIf() {
    support::Span start = advance().span;  // 'if' or 'elif'
    NodeId cond = parseExpr();
    expect(TokenKind::Colon, "after the if condition");
    std::vector<NodeId> kids{cond};
    parseBlock(kids);
    uint32_t split = static_cast<uint32_t>(kids.size());
    if (at(TokenKind::KwElif)) {
      // An elif is an If nested in the else branch: it counts as a block level.
      NestingGuard guard(blockDepth_, kMaxBlockNesting, [&](uint32_t depth) { blocksTooDeep(depth); });
      kids.push_back(parseIf());
    } else if (accept(TokenKind::KwElse)) {
      expect(TokenKind::Colon, "after 'else'");
      parseBlock(kids);
    }
    NodeId id = add(NodeKind::If, start.to(spanOf(cond)), std::move(kids));
    ast_.node(id).split = split;
    return id;
  }

  // --- expressions -----------------------------------------------------------------------------------------
  // expr := or_expr
  // The length limit applies to a whole expression, nested parts included; the nesting limit to every level.
  // Nesting is counted where it opens: a parenthesis, a prefix operator, '**', and each postfix operation (the
  // level stays open over a call's arguments and a subscript's indices).
  NodeId parseExpr() {
    if (exprDepth_ > 0) return parseConditional();
    operations_ = 0;
    NodeId result = parseConditional();
    if (operations_ > kMaxExprOperations) {
      diagnostics_
          .error(firstOverLimit_,
                 fmt::format("expression too long: {} operations (the limit is {})", operations_, kMaxExprOperations))
          .hint("split it into several statements with intermediate names ('s1 = ...', 's2 = s1 + ...')");
      throw SyntaxError{};
    }
    return result;
  }
  [[noreturn]] void tooDeep(uint32_t depth) {
    fail(fmt::format("expression nested too deeply: {} levels (the limit is {})", depth, kMaxExprNesting),
         "name the inner parts in separate statements ('t = ...')");
  }
  // Called at each operator token; the error, reported once the whole expression is read, points at the first
  // operator past the limit and gives the full count.
  void countOperation() {
    if (++operations_ == kMaxExprOperations + 1) firstOverLimit_ = peek().span;
  }

  NodeId binary(NodeKind kind, OpKind op, NodeId lhs, NodeId rhs) {
    NodeId id = add(kind, spanOf(lhs).to(spanOf(rhs)), {lhs, rhs});
    ast_.node(id).op = op;
    return id;
  }

  // conditional := or_expr ['if' or_expr 'else' expr]
  NodeId parseConditional() {
    NodeId then = parseOr();
    if (!at(TokenKind::KwIf)) return then;
    countOperation();
    NestingGuard guard(exprDepth_, kMaxExprNesting, [&](uint32_t depth) { tooDeep(depth); });
    advance();
    NodeId cond = parseOr();
    expect(TokenKind::KwElse, "in the conditional expression ('a if c else b')");
    NodeId otherwise = parseConditional();
    return add(NodeKind::IfExp, spanOf(then).to(spanOf(otherwise)), {then, cond, otherwise});
  }
  // or_expr := and_expr ('or' and_expr)*
  NodeId parseOr() {
    NodeId lhs = parseAnd();
    while (at(TokenKind::KwOr)) {
      countOperation();
      advance();
      lhs = binary(NodeKind::Logical, OpKind::Or, lhs, parseAnd());
    }
    return lhs;
  }
  // and_expr := not_expr ('and' not_expr)*
  NodeId parseAnd() {
    NodeId lhs = parseNot();
    while (at(TokenKind::KwAnd)) {
      countOperation();
      advance();
      lhs = binary(NodeKind::Logical, OpKind::And, lhs, parseNot());
    }
    return lhs;
  }
  // not_expr := 'not' not_expr | comparison
  NodeId parseNot() {
    if (at(TokenKind::KwNot)) {
      countOperation();
      NestingGuard guard(exprDepth_, kMaxExprNesting, [&](uint32_t depth) { tooDeep(depth); });
      support::Span start = advance().span;
      NodeId operand = parseNot();
      NodeId id = add(NodeKind::Unary, start.to(spanOf(operand)), {operand});
      ast_.node(id).op = OpKind::Not;
      return id;
    }
    return parseComparison();
  }
  // comparison := arith [compop arith]       (no chaining: 'a < b < c' is an error)
  NodeId parseComparison() {
    NodeId lhs = parseArith();
    OpKind op = compareOp(peek().kind);
    if (op == OpKind::None) return lhs;
    countOperation();
    advance();
    NodeId result = binary(NodeKind::Compare, op, lhs, parseArith());
    if (compareOp(peek().kind) != OpKind::None) {
      fail("chained comparisons are not supported", "combine two comparisons with 'and'");
    }
    return result;
  }
  static OpKind compareOp(TokenKind kind) {
    switch (kind) {
      case TokenKind::EqEq: return OpKind::Eq;
      case TokenKind::NotEq: return OpKind::Ne;
      case TokenKind::Less: return OpKind::Lt;
      case TokenKind::LessEq: return OpKind::Le;
      case TokenKind::Greater: return OpKind::Gt;
      case TokenKind::GreaterEq: return OpKind::Ge;
      case TokenKind::KwIn: return OpKind::In;
      default: return OpKind::None;
    }
  }
  // arith := term (('+' | '-') term)*
  NodeId parseArith() {
    NodeId lhs = parseTerm();
    while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
      countOperation();
      OpKind op = advance().kind == TokenKind::Plus ? OpKind::Add : OpKind::Sub;
      lhs = binary(NodeKind::Binary, op, lhs, parseTerm());
    }
    return lhs;
  }
  // term := factor (('*' | '/' | '//' | '%' | '@') factor)*
  NodeId parseTerm() {
    NodeId lhs = parseFactor();
    while (true) {
      OpKind op = OpKind::None;
      switch (peek().kind) {
        case TokenKind::Star: op = OpKind::Mul; break;
        case TokenKind::Slash: op = OpKind::Div; break;
        case TokenKind::SlashSlash: op = OpKind::FloorDiv; break;
        case TokenKind::Percent: op = OpKind::Mod; break;
        case TokenKind::At: op = OpKind::MatMul; break;
        default: return lhs;
      }
      countOperation();
      advance();
      lhs = binary(NodeKind::Binary, op, lhs, parseFactor());
    }
  }
  // factor := ('-' | '+') factor | power
  NodeId parseFactor() {
    if (at(TokenKind::Minus) || at(TokenKind::Plus)) {
      countOperation();
      NestingGuard guard(exprDepth_, kMaxExprNesting, [&](uint32_t depth) { tooDeep(depth); });
      const Token& t = advance();
      NodeId operand = parseFactor();
      NodeId id = add(NodeKind::Unary, t.span.to(spanOf(operand)), {operand});
      ast_.node(id).op = t.kind == TokenKind::Minus ? OpKind::Neg : OpKind::Pos;
      return id;
    }
    return parsePower();
  }
  // power := postfix ['**' factor]
  NodeId parsePower() {
    NodeId base = parsePostfix();
    if (!at(TokenKind::StarStar)) return base;
    countOperation();
    NestingGuard guard(exprDepth_, kMaxExprNesting, [&](uint32_t depth) { tooDeep(depth); });
    advance();
    return binary(NodeKind::Binary, OpKind::Pow, base, parseFactor());
  }
  // postfix := atom ('(' args ')' | '[' subscripts ']' | '.' NAME)*
  NodeId parsePostfix() {
    NodeId expr = parseAtom();
    // Each call, subscript or attribute wraps the tree so far: a chain of them is as deep as it is long.
    uint32_t outerDepth = exprDepth_;
    struct Restore {
      uint32_t& depth;
      uint32_t saved;
      ~Restore() { depth = saved; }
    } restore{exprDepth_, outerDepth};
    while (true) {
      if (at(TokenKind::LParen) || at(TokenKind::LBracket) || at(TokenKind::Dot)) {
        countOperation();
        if (++exprDepth_ > kMaxExprNesting) tooDeep(exprDepth_);
      }
      if (accept(TokenKind::LParen)) {
        std::vector<NodeId> kids{expr};
        std::vector<NodeId> args = parseArgs(TokenKind::RParen);
        kids.insert(kids.end(), args.begin(), args.end());
        const Token& close = expect(TokenKind::RParen, "to close the call");
        expr = add(NodeKind::Call, spanOf(expr).to(close.span), std::move(kids));
      } else if (accept(TokenKind::LBracket)) {
        std::vector<NodeId> kids{expr};
        do {
          if (at(TokenKind::RBracket)) break;
          kids.push_back(parseSubscript());
        } while (accept(TokenKind::Comma));
        const Token& close = expect(TokenKind::RBracket, "to close the subscript");
        if (kids.size() == 1) fail("empty subscript");
        expr = add(NodeKind::Subscript, spanOf(expr).to(close.span), std::move(kids));
      } else if (accept(TokenKind::Dot)) {
        const Token& name = expect(TokenKind::Name, "after '.'");
        NodeId id = add(NodeKind::Attribute, spanOf(expr).to(name.span), {expr});
        ast_.node(id).name = name.text;
        expr = id;
      } else {
        return expr;
      }
    }
  }
  // args := [arg (',' arg)* [',']]      arg := NAME '=' expr | expr   (keywords after positionals)
  std::vector<NodeId> parseArgs(TokenKind close) {
    std::vector<NodeId> args;
    bool sawKeyword = false;
    while (!at(close)) {
      if (at(TokenKind::Name) && peek(1).kind == TokenKind::Assign) {
        const Token& name = advance();
        advance();
        NodeId value = parseExpr();
        NodeId kw = add(NodeKind::Keyword, name.span.to(spanOf(value)), {value});
        ast_.node(kw).name = name.text;
        args.push_back(kw);
        sawKeyword = true;
      } else {
        if (sawKeyword) fail("positional argument after a keyword argument");
        args.push_back(parseExpr());
      }
      if (!accept(TokenKind::Comma)) break;
    }
    return args;
  }
  // subscript := expr | [expr] ':' [expr] [':' [expr]]
  NodeId parseSubscript() {
    support::Span start = peek().span;
    NodeId lo = kNoNode;
    if (!at(TokenKind::Colon)) {
      lo = parseExpr();
      if (!at(TokenKind::Colon)) return lo;
    }
    const Token& colon = advance();
    support::Span span = lo == kNoNode ? colon.span : start.to(colon.span);
    NodeId hi = kNoNode;
    NodeId step = kNoNode;
    if (!at(TokenKind::Colon) && !at(TokenKind::Comma) && !at(TokenKind::RBracket)) {
      hi = parseExpr();
      span = span.to(spanOf(hi));
    }
    if (accept(TokenKind::Colon)) {
      if (!at(TokenKind::Comma) && !at(TokenKind::RBracket)) {
        step = parseExpr();
        span = span.to(spanOf(step));
      }
    }
    return add(NodeKind::Slice, span, {lo, hi, step});
  }
  // atom := NAME | INT | FLOAT | STRING | 'True' | 'False' | 'None' | '(' [expr (',' expr)* [',']] ')'
  NodeId parseAtom() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::Name: {
        advance();
        NodeId id = add(NodeKind::Name, t.span);
        ast_.node(id).name = t.text;
        return id;
      }
      case TokenKind::Int: {
        advance();
        std::string digits;
        for (char c : t.text) {
          if (c != '_') digits += c;
        }
        int64_t value = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec != std::errc() || ptr != digits.data() + digits.size()) {
          diagnostics_.error(t.span, fmt::format("integer {} is too large (limit 2^63-1)", t.text));
        }
        NodeId id = add(NodeKind::IntLit, t.span);
        ast_.node(id).intValue = value;
        ast_.node(id).name = t.text;
        return id;
      }
      case TokenKind::Float: {
        advance();
        std::string digits;
        for (char c : t.text) {
          if (c != '_') digits += c;
        }
        NodeId id = add(NodeKind::FloatLit, t.span);
        ast_.node(id).floatValue = std::strtod(digits.c_str(), nullptr);
        ast_.node(id).name = t.text;
        return id;
      }
      case TokenKind::String: {
        advance();
        NodeId id = add(NodeKind::StringLit, t.span);
        ast_.node(id).name = t.text;
        return id;
      }
      case TokenKind::KwTrue:
      case TokenKind::KwFalse: {
        advance();
        NodeId id = add(NodeKind::BoolLit, t.span);
        ast_.node(id).intValue = t.kind == TokenKind::KwTrue;
        return id;
      }
      case TokenKind::KwNone: advance(); return add(NodeKind::NoneLit, t.span);
      case TokenKind::Ellipsis: advance(); return add(NodeKind::Ellipsis, t.span);
      case TokenKind::LParen: {
        NestingGuard guard(exprDepth_, kMaxExprNesting, [&](uint32_t depth) { tooDeep(depth); });
        advance();
        std::vector<NodeId> elems;
        bool trailingComma = false;
        while (!at(TokenKind::RParen)) {
          elems.push_back(parseExpr());
          trailingComma = accept(TokenKind::Comma);
          if (!trailingComma) break;
        }
        const Token& close = expect(TokenKind::RParen, "to close the parenthesis");
        if (elems.size() == 1 && !trailingComma) {
          ast_.node(elems[0]).span = t.span.to(close.span);  // the parentheses belong to the expression
          return elems[0];
        }
        return add(NodeKind::Tuple, t.span.to(close.span), std::move(elems));
      }
      default: fail(fmt::format("expected an expression, found {}", describe(t)));
    }
  }

  const std::vector<Token>& tokens_;
  support::DiagnosticEngine& diagnostics_;
  Ast ast_;
  size_t pos_ = 0;
  uint32_t exprDepth_ = 0;   // open parseExpr calls, prefix operators, '**' and postfix operations
  uint32_t blockDepth_ = 0;  // open indented blocks
  uint32_t operations_ = 0;  // operators in the current top-level expression
  support::Span firstOverLimit_;
  uint32_t statements_ = 0;  // statements in the current kernel, nested ones included
  support::Span firstStatementOverLimit_;
};

}  // namespace

Ast parse(const std::vector<Token>& tokens, support::DiagnosticEngine& diagnostics) {
  return Parser(tokens, diagnostics).run();
}

}  // namespace tilecraft::dsl

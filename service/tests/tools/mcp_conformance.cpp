// mcp_conformance TILECRAFT REPO: starts `tilecraft mcp --suite REPO/tasks` and speaks MCP to it over its
// stdin/stdout as a client does: initialize, the initialized notification, ping, tools/list, tools/call of every
// tool (run_solution and bench_solution through the real judge on the add task), each JSON-RPC error code with
// its id echoed, a batch, and exit status 0 at the end of input. Prints "mcp conformance: N passed, 0 failed".
#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "service/load_client.h"
#include "support/files.h"

namespace {

using nlohmann::json;
using tilecraft::service::ChildProcess;

int passed = 0, failed = 0;

void check(bool ok, const std::string& what, const json& got = nullptr) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  std::cout << "FAIL: " << what << (got.is_null() ? "" : "\n  got: " + got.dump().substr(0, 600)) << '\n';
}

json request(ChildProcess& mcp, const json& message, double timeout = 30) {
  mcp.writeLine(message.dump());
  std::string line;
  if (!mcp.readLine(&line, timeout)) return json();
  json reply = json::parse(line, nullptr, false);
  return reply.is_discarded() ? json("not JSON: " + line) : reply;
}

json call(ChildProcess& mcp, int id, const std::string& tool, const json& arguments, double timeout = 30) {
  return request(mcp,
                 {{"jsonrpc", "2.0"},
                  {"id", id},
                  {"method", "tools/call"},
                  {"params", {{"name", tool}, {"arguments", arguments}}}},
                 timeout);
}

std::string text(const json& reply) {
  const json* content = reply.contains("result") ? &reply["result"]["content"] : nullptr;
  return content && content->is_array() && !content->empty() ? (*content)[0].value("text", "") : "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: mcp_conformance TILECRAFT REPO\n";
    return 2;
  }
  std::filesystem::path repo = argv[2];
  ChildProcess mcp({argv[1], "mcp", "--suite", (repo / "tasks").string()});

  json init = request(mcp, {{"jsonrpc", "2.0"},
                            {"id", 1},
                            {"method", "initialize"},
                            {"params",
                             {{"protocolVersion", "2025-06-18"},
                              {"capabilities", json::object()},
                              {"clientInfo", {{"name", "conformance"}, {"version", "1"}}}}}});
  check(init.value("id", 0) == 1 && init["jsonrpc"] == "2.0", "initialize echoes id 1", init);
  check(init["result"]["protocolVersion"] == "2025-06-18", "initialize: protocolVersion", init);
  check(init["result"]["serverInfo"]["name"] == "tilecraft", "initialize: serverInfo.name", init);
  check(init["result"]["capabilities"].contains("tools"), "initialize: capabilities.tools", init);

  mcp.writeLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  json ping = request(mcp, {{"jsonrpc", "2.0"}, {"id", "p"}, {"method", "ping"}});
  check(ping["id"] == "p" && ping["result"] == json::object(), "the notification got no reply; ping does", ping);

  json list = request(mcp, {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}});
  std::vector<std::string> names;
  for (const json& t : list["result"]["tools"]) {
    names.push_back(t.value("name", ""));
    check(t["inputSchema"]["type"] == "object" && t["description"].is_string(), "tool schema " + names.back(), t);
  }
  check(names == std::vector<std::string>{"list_tasks", "show_task", "check_program", "run_solution", "bench_solution",
                                          "language_reference"},
        "tools/list names the six tools", list);

  json tasks = json::parse(text(call(mcp, 4, "list_tasks", {{"folder", "level1"}})), nullptr, false);
  bool add = false;
  for (const json& t : tasks.value("tasks", json::array())) add = add || t["task"] == "add";
  check(add, "list_tasks level1 lists add", tasks);
  json show = call(mcp, 5, "show_task", {{"task", "add"}});
  check(text(show).find("## golden.py") != std::string::npos && show["result"]["isError"] == false, "show_task add",
        show);
  json missing = call(mcp, 6, "show_task", {{"task", "nope"}});
  check(missing["result"]["isError"] == true && text(missing).rfind("unknown task 'nope'", 0) == 0,
        "show_task of an unknown task is a tool error", missing);
  json section = call(mcp, 7, "language_reference", {{"section", "7"}});
  check(text(section).rfind("## 7. Data movement", 0) == 0, "language_reference section 7", section);
  std::string good = tilecraft::support::readFile(repo / "solutions/add/add.tile").value_or("");
  std::string broken = good;
  // Where the error will be: the line of `a + b` in the expert solution, and the column of `q` on it.
  size_t at = broken.find("a + b");
  check(at != std::string::npos, "solutions/add/add.tile holds 'a + b'", json());
  broken.replace(at, 5, "a + q");
  int qLine = 1 + static_cast<int>(std::count(broken.begin(), broken.begin() + static_cast<long>(at), '\n'));
  int qColumn = static_cast<int>(at - broken.rfind('\n', at)) + 4;
  json checked = json::parse(text(call(mcp, 8, "check_program", {{"source", broken}})), nullptr, false);
  check(checked.value("ok", true) == false && checked["diagnostics"][0]["file"] == "program.tile" &&
            checked["diagnostics"][0]["line"] == qLine && checked["diagnostics"][0]["column"] == qColumn,
        fmt::format("check_program reports the error at program.tile:{}:{}", qLine, qColumn), checked);

  // The judge: the expert solution passes case 1; the broken one does not compile.
  json run = json::parse(text(call(mcp, 9, "run_solution", {{"task", "add"}, {"source", good}, {"cases", {"1"}}}, 600)),
                         nullptr, false);
  check(run.value("compiled", false) && run.value("correct", false) && run["cases_passed"] == 1,
        "run_solution: the expert add passes case 1", run);
  json bench =
      json::parse(text(call(mcp, 10, "bench_solution", {{"task", "add"}, {"source", good}, {"cases", {"1"}}}, 600)),
                  nullptr, false);
  check(bench.value("speedup", 0.0) > 0 && bench.value("reward", 0.0) >= 0.5 && bench["cases"][0]["sim_us"] > 0,
        "bench_solution: speedup, reward and simulated time", bench);
  json wrong =
      json::parse(text(call(mcp, 11, "run_solution", {{"task", "add"}, {"source", broken}, {"cases", {"1"}}}, 600)),
                  nullptr, false);
  check(wrong.value("compiled", true) == false && wrong["cases"][0]["failure"] == "syntax" &&
            wrong["cases"][0]["message"] ==
                fmt::format("kernel.tile:{}:{}: error: name 'q' is not defined", qLine, qColumn),
        "run_solution: the broken add does not compile", wrong);

  // An AscendC project goes to the harness too, which builds its op_host and says what is wrong with it.
  json project = json::parse(
      text(call(mcp, 16, "run_solution",
                {{"task", "add"},
                 {"kind", "ascendc"},
                 {"files", {{"op_host/add_custom.cpp", "// host\n"}, {"op_kernel/add_custom.cpp", "// kernel\n"}}},
                 {"cases", {"1"}}},
                600)),
      nullptr, false);
  check(project.value("compiled", true) == false && project["kind"] == "ascendc" &&
            project["cases"][0]["failure"] == "signature" &&
            project["cases"][0]["message"] == "error: op_host registers 0 operators with OP_ADD (); a project has one",
        "run_solution: an AscendC project with no OpDef is judged by the harness and refused", project);

  // JSON-RPC errors, ids echoed where the request had a valid one.
  mcp.writeLine("{this is not json");
  std::string line;
  json parse = mcp.readLine(&line, 30) ? json::parse(line, nullptr, false) : json();
  check(parse["error"]["code"] == -32700 && parse["id"].is_null(), "-32700 parse error, id null", parse);
  json invalid = request(mcp, {{"jsonrpc", "2.0"}, {"id", "x"}, {"method", 5}});
  check(invalid["error"]["code"] == -32600 && invalid["id"] == "x", "-32600 invalid request, id echoed", invalid);
  json method = request(mcp, {{"jsonrpc", "2.0"}, {"id", 12}, {"method", "prompts/list"}});
  check(method["error"]["code"] == -32601 && method["id"] == 12, "-32601 method not found, id echoed", method);
  json tool = call(mcp, 13, "no_such_tool", json::object());
  check(tool["error"]["code"] == -32602 && tool["id"] == 13, "-32602 unknown tool, id echoed", tool);
  json args = call(mcp, 14, "show_task", json::object());
  check(args["error"]["code"] == -32602 &&
            args["error"]["message"] == "Invalid params: tool 'show_task': missing required argument 'task'",
        "-32602 missing argument", args);

  mcp.writeLine(
      R"([{"jsonrpc":"2.0","id":15,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}])");
  json batch = mcp.readLine(&line, 30) ? json::parse(line, nullptr, false) : json();
  check(batch.is_array() && batch.size() == 1 && batch[0]["id"] == 15, "a batch answers its one request", batch);

  mcp.closeInput();
  int status = mcp.wait();
  check(status == 0, fmt::format("exit status 0 at the end of input (got {})", status));
  std::cout << fmt::format("mcp conformance: {} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

#include "service/mcp.h"

#include <exception>
#include <istream>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilecraft::service {
namespace {

using nlohmann::json;

json rpcError(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json rpcResult(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

// Tool output may hold any bytes (a compiler message quoting the source): invalid UTF-8 is replaced, not thrown.
std::string dumpLine(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool validId(const json& id) { return id.is_string() || id.is_number_integer() || id.is_null(); }

bool hasType(const json& value, const std::string& type) {
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  return true;
}

}  // namespace

bool StreamTransport::readLine(std::string* line) { return static_cast<bool>(std::getline(in_, *line)); }

void StreamTransport::writeLine(const std::string& line) { out_ << line << '\n' << std::flush; }

std::string checkArguments(const std::string& schemaText, const std::string& argumentsText) {
  json schema = json::parse(schemaText);
  json arguments = json::parse(argumentsText);
  if (!arguments.is_object()) return "the arguments must be an object";
  for (const json& name : schema.value("required", json::array())) {
    if (!arguments.contains(name.get<std::string>())) {
      return fmt::format("missing required argument '{}'", name.get<std::string>());
    }
  }
  const json properties = schema.value("properties", json::object());
  for (const auto& [name, value] : arguments.items()) {
    if (!properties.contains(name)) {
      if (schema.value("additionalProperties", true) == false) return fmt::format("unknown argument '{}'", name);
      continue;
    }
    json type = properties[name].value("type", json());
    json types = type.is_array() ? type : json::array({type});
    bool fits = type.is_null();
    for (const json& t : types) fits = fits || (t.is_string() && hasType(value, t.get<std::string>()));
    if (!fits) {
      std::string names;
      for (const json& t : types) names += (names.empty() ? "" : " or ") + t.get<std::string>();
      return fmt::format("argument '{}' must be of type {}", name, names);
    }
  }
  return "";
}

McpServer::McpServer(std::vector<McpTool> tools, std::string version)
    : tools_(std::move(tools)), version_(std::move(version)) {}

namespace {

struct Dispatch {
  const std::vector<McpTool>& tools;
  const std::string& version;

  // The reply to one message, or null when it gets none (a notification or a response).
  json message(const json& m) {
    if (!m.is_object()) return rpcError(nullptr, kInvalidRequest, "Invalid Request: a message is a JSON object");
    bool isNotification = !m.contains("id");
    json id = isNotification ? json(nullptr) : m["id"];
    if (!isNotification && !validId(id)) {
      return rpcError(nullptr, kInvalidRequest, "Invalid Request: 'id' must be a string, an integer or null");
    }
    if (!m.contains("method") && (m.contains("result") || m.contains("error"))) return nullptr;  // a response
    if (m.value("jsonrpc", json()) != "2.0") {
      return isNotification ? json(nullptr)
                            : rpcError(id, kInvalidRequest, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    }
    if (!m.contains("method") || !m["method"].is_string()) {
      return isNotification ? json(nullptr)
                            : rpcError(id, kInvalidRequest, "Invalid Request: 'method' must be a string");
    }
    if (m.contains("params") && !m["params"].is_object() && !m["params"].is_array()) {
      return isNotification ? json(nullptr)
                            : rpcError(id, kInvalidRequest, "Invalid Request: 'params' must be an object or an array");
    }
    std::string method = m["method"].get<std::string>();
    // Notifications (notifications/initialized, notifications/cancelled, ...) are never answered, not even with
    // an error.
    if (isNotification) return nullptr;
    json params = m.value("params", json::object());
    if (method == "initialize") return rpcResult(id, initialize());
    if (method == "ping") return rpcResult(id, json::object());
    if (method == "tools/list") return rpcResult(id, listTools());
    if (method == "tools/call") return callTool(id, params);
    return rpcError(id, kMethodNotFound, fmt::format("Method not found: {}", method));
  }

  json initialize() const {
    return {{"protocolVersion", kMcpProtocolVersion},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"serverInfo", {{"name", "tilecraft"}, {"title", "Tilecraft"}, {"version", version}}},
            {"instructions",
             "Tilecraft judges Ascend NPU kernels written in the Tile DSL (or as AscendC custom-op projects) on "
             "an emulator and a 910B2 performance model. Read language_reference, pick a task with list_tasks "
             "and show_task, check_program your kernel, then run_solution and bench_solution."}};
  }

  json listTools() const {
    json list = json::array();
    for (const McpTool& t : tools) {
      list.push_back({{"name", t.name},
                      {"title", t.title},
                      {"description", t.description},
                      {"inputSchema", json::parse(t.inputSchema)}});
    }
    return {{"tools", list}};
  }

  json callTool(const json& id, const json& params) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
      return rpcError(id, kInvalidParams, "Invalid params: tools/call needs 'name', a string");
    }
    std::string name = params["name"].get<std::string>();
    const McpTool* tool = nullptr;
    for (const McpTool& t : tools) {
      if (t.name == name) tool = &t;
    }
    if (tool == nullptr) return rpcError(id, kInvalidParams, fmt::format("Invalid params: unknown tool '{}'", name));
    json arguments = params.value("arguments", json::object());
    std::string problem = checkArguments(tool->inputSchema, arguments.dump());
    if (!problem.empty()) {
      return rpcError(id, kInvalidParams, fmt::format("Invalid params: tool '{}': {}", name, problem));
    }
    ToolResult result;
    try {
      result = tool->call(arguments.dump());
    } catch (const std::exception& e) {
      result = {fmt::format("tool '{}' failed: {}", name, e.what()), true};
    }
    return rpcResult(
        id, {{"content", json::array({{{"type", "text"}, {"text", result.text}}})}, {"isError", result.isError}});
  }
};

}  // namespace

std::optional<std::string> McpServer::handleLine(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
  json parsed;
  try {
    parsed = json::parse(line);
  } catch (const json::parse_error& e) {
    return dumpLine(
        rpcError(nullptr, kParseError, fmt::format("Parse error at byte {}: the line is not JSON", e.byte)));
  }
  Dispatch dispatch{tools_, version_};
  if (!parsed.is_array()) {
    json reply = dispatch.message(parsed);
    if (reply.is_null()) return std::nullopt;
    return dumpLine(reply);
  }
  if (parsed.empty()) return dumpLine(rpcError(nullptr, kInvalidRequest, "Invalid Request: an empty batch"));
  json replies = json::array();
  for (const json& m : parsed) {
    json reply = dispatch.message(m);
    if (!reply.is_null()) replies.push_back(std::move(reply));
  }
  if (replies.empty()) return std::nullopt;  // a batch of notifications gets no reply at all
  return dumpLine(replies);
}

int McpServer::serve(LineTransport& transport) {
  std::string line;
  while (transport.readLine(&line)) {
    if (std::optional<std::string> reply = handleLine(line)) transport.writeLine(*reply);
  }
  return 0;
}

}  // namespace tilecraft::service

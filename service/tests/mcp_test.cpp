// The MCP server's JSON-RPC handling, driven with strings: initialize, ping, tools/list, tools/call, each error
// code with the id echoed, notifications and batches.
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "service/mcp.h"

namespace tilecraft::service {
namespace {

using nlohmann::json;

McpServer makeServer() {
  std::vector<McpTool> tools;
  tools.push_back({"echo", "Echo", "Returns its text",
                   R"({"type": "object", "properties": {"text": {"type": "string"}, "times": {"type": "integer"}},
                       "required": ["text"], "additionalProperties": false})",
                   [](const std::string& args) {
                     json a = json::parse(args);
                     std::string out;
                     for (int i = 0; i < a.value("times", 1); ++i) out += a["text"].get<std::string>();
                     return ToolResult{out, false};
                   }});
  tools.push_back({"fail", "Fail", "Always fails", R"({"type": "object"})",
                   [](const std::string&) -> ToolResult { throw std::runtime_error("the disk is full"); }});
  return McpServer(tools, "9.9.9");
}

json reply(McpServer& server, const std::string& line) {
  std::optional<std::string> r = server.handleLine(line);
  EXPECT_TRUE(r.has_value()) << line;
  return r ? json::parse(*r) : json();
}

TEST(Mcp, InitializeAnswersWithTheProtocolVersionServerInfoAndToolsCapability) {
  McpServer server = makeServer();
  json r = reply(
      server,
      R"({"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  EXPECT_EQ(r["jsonrpc"], "2.0");
  EXPECT_EQ(r["id"], "init-1");
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "tilecraft");
  EXPECT_EQ(r["result"]["serverInfo"]["version"], "9.9.9");
  EXPECT_EQ(r["result"]["capabilities"]["tools"]["listChanged"], false);
}

TEST(Mcp, NotificationsGetNoReplyEvenWhenUnknown) {
  McpServer server = makeServer();
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","method":"no/such/method"})").has_value());
  EXPECT_FALSE(server.handleLine("").has_value());
  // A response the client sends (to a request the server never made) is not answered either.
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","id":5,"result":{}})").has_value());
}

TEST(Mcp, PingAndToolsList) {
  McpServer server = makeServer();
  json ping = reply(server, R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(ping["id"], 7);
  EXPECT_EQ(ping["result"], json::object());
  json list = reply(server, R"({"jsonrpc":"2.0","id":8,"method":"tools/list"})");
  ASSERT_EQ(list["result"]["tools"].size(), 2u);
  EXPECT_EQ(list["result"]["tools"][0]["name"], "echo");
  EXPECT_EQ(list["result"]["tools"][0]["inputSchema"]["required"], json::array({"text"}));
}

TEST(Mcp, ToolsCallReturnsTextContentAndIsErrorForToolFailures) {
  McpServer server = makeServer();
  json ok = reply(
      server,
      R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ab","times":2}}})");
  EXPECT_EQ(ok["result"]["content"][0]["type"], "text");
  EXPECT_EQ(ok["result"]["content"][0]["text"], "abab");
  EXPECT_EQ(ok["result"]["isError"], false);
  json failed = reply(server, R"({"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"fail"}})");
  EXPECT_EQ(failed["result"]["isError"], true);
  EXPECT_EQ(failed["result"]["content"][0]["text"], "tool 'fail' failed: the disk is full");
}

TEST(Mcp, ErrorCodesEchoTheId) {
  McpServer server = makeServer();
  json parse = reply(server, R"({"jsonrpc":"2.0","id":1,"method":)");
  EXPECT_EQ(parse["error"]["code"], -32700);
  EXPECT_EQ(parse["error"]["message"], "Parse error at byte 34: the line is not JSON");
  EXPECT_TRUE(parse["id"].is_null());

  json version = reply(server, R"({"jsonrpc":"1.0","id":2,"method":"ping"})");
  EXPECT_EQ(version["error"]["code"], -32600);
  EXPECT_EQ(version["error"]["message"], "Invalid Request: 'jsonrpc' must be \"2.0\"");
  EXPECT_EQ(version["id"], 2);
  json method = reply(server, R"({"jsonrpc":"2.0","id":"m","method":42})");
  EXPECT_EQ(method["error"]["code"], -32600);
  EXPECT_EQ(method["id"], "m");
  json badId = reply(server, R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})");
  EXPECT_EQ(badId["error"]["message"], "Invalid Request: 'id' must be a string, an integer or null");
  EXPECT_TRUE(badId["id"].is_null());
  json notObject = reply(server, "42");
  EXPECT_EQ(notObject["error"]["code"], -32600);

  json unknown = reply(server, R"({"jsonrpc":"2.0","id":3,"method":"resources/list"})");
  EXPECT_EQ(unknown["error"]["code"], -32601);
  EXPECT_EQ(unknown["error"]["message"], "Method not found: resources/list");
  EXPECT_EQ(unknown["id"], 3);

  json tool = reply(server, R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}})");
  EXPECT_EQ(tool["error"]["code"], -32602);
  EXPECT_EQ(tool["error"]["message"], "Invalid params: unknown tool 'nope'");
  json missing =
      reply(server, R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}})");
  EXPECT_EQ(missing["error"]["message"], "Invalid params: tool 'echo': missing required argument 'text'");
  EXPECT_EQ(missing["id"], 5);
  json type = reply(
      server, R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":1}}})");
  EXPECT_EQ(type["error"]["message"], "Invalid params: tool 'echo': argument 'text' must be of type string");
  json extra = reply(
      server,
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","x":1}}})");
  EXPECT_EQ(extra["error"]["message"], "Invalid params: tool 'echo': unknown argument 'x'");
  json noName = reply(server, R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}})");
  EXPECT_EQ(noName["error"]["message"], "Invalid params: tools/call needs 'name', a string");
}

TEST(Mcp, BatchesAnswerTheirRequestsOnly) {
  McpServer server = makeServer();
  json batch = reply(server, R"([{"jsonrpc":"2.0","id":1,"method":"ping"},
                                 {"jsonrpc":"2.0","method":"notifications/initialized"},
                                 {"jsonrpc":"2.0","id":2,"method":"nope"}])");
  ASSERT_TRUE(batch.is_array());
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0]["id"], 1);
  EXPECT_EQ(batch[1]["error"]["code"], -32601);
  EXPECT_FALSE(server.handleLine(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])").has_value());
  json empty = reply(server, "[]");
  EXPECT_EQ(empty["error"]["code"], -32600);
  EXPECT_EQ(empty["error"]["message"], "Invalid Request: an empty batch");
}

TEST(Mcp, ServeAnswersLineByLineUntilTheEndOfInput) {
  McpServer server = makeServer();
  std::istringstream in(R"({"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
not json
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"line\nbreak"}}}
)");
  std::ostringstream out;
  StreamTransport transport(in, out);
  EXPECT_EQ(server.serve(transport), 0);
  EXPECT_EQ(out.str(),
            "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n"
            "{\"error\":{\"code\":-32700,\"message\":\"Parse error at byte 2: the line is not JSON\"},\"id\":null,"
            "\"jsonrpc\":\"2.0\"}\n"
            "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"line\\nbreak\",\"type\":\"text\"}],"
            "\"isError\":false}}\n");
}

}  // namespace
}  // namespace tilecraft::service

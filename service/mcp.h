// `tilecraft mcp`: a Model Context Protocol server (revision 2025-06-18) over the stdio transport, JSON-RPC 2.0 with
// one message per line. The server answers initialize, ping, tools/list and tools/call, ignores the notifications
// it has no use for, and reports malformed messages with JSON-RPC's error codes. The lines come and go through
// LineTransport, so tests drive the server with strings.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tilecraft::service {

inline constexpr const char* kMcpProtocolVersion = "2025-06-18";

// JSON-RPC 2.0's error codes.
enum RpcError { kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602 };

struct ToolResult {
  std::string text;
  bool isError = false;  // the tool ran and failed (MCP's tool execution error), as opposed to a protocol error
};

struct McpTool {
  std::string name, title, description;
  std::string inputSchema;  // JSON Schema text of the arguments object
  // Called with the arguments object as JSON text, once it has the schema's required properties and types.
  std::function<ToolResult(const std::string& arguments)> call;
};

class LineTransport {
 public:
  virtual ~LineTransport() = default;
  // The next line without its newline; false at end of input.
  virtual bool readLine(std::string* line) = 0;
  virtual void writeLine(const std::string& line) = 0;
};

// stdin/stdout, or any pair of streams; each line written is flushed.
class StreamTransport final : public LineTransport {
 public:
  StreamTransport(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  bool readLine(std::string* line) override;
  void writeLine(const std::string& line) override;

 private:
  std::istream& in_;
  std::ostream& out_;
};

class McpServer {
 public:
  McpServer(std::vector<McpTool> tools, std::string version);
  // One incoming line (a message or a batch); the reply line, or nullopt when nothing is to be sent (notifications,
  // responses, a blank line).
  std::optional<std::string> handleLine(const std::string& line);
  // Until the end of input. Returns 0.
  int serve(LineTransport& transport);

 private:
  std::vector<McpTool> tools_;
  std::string version_;
};

// Whether `arguments` (JSON text of an object) has the required properties of `schema` and each property the
// schema types has that type (string, integer, number, boolean, array, object). "" when it does; else why not.
std::string checkArguments(const std::string& schema, const std::string& arguments);

}  // namespace tilecraft::service

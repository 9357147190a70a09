// The flags that pick and adjust a model endpoint (configs/llm.yaml), shared by the commands that talk to a model
// (`tilecraft llm chat`, `tilecraft agent`), and the client they describe.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llm/endpoints.h"

namespace CLI {
class App;
}

namespace tilecraft::llm {
class OpenAiChatClient;
}

namespace tilecraft::cli {

struct EndpointFlags {
  std::string config = "configs/llm.yaml";
  std::string endpoint;
  std::optional<std::string> model, baseUrl, apiKeyEnv;
  std::optional<double> temperature;
  std::optional<int64_t> maxTokens;
  std::optional<uint64_t> seed;
  std::optional<double> timeout;
  std::optional<int> maxAttempts;
  bool stream = false, noStream = false;
  std::vector<std::string> endpoints;  // --endpoint, repeatable, for a command that runs several (severalEndpoints)
};

// Which of the flags a command takes.
struct EndpointFlagSet {
  bool endpointRequired = true;   // false: the command can do without a model (`agent --replay`) and checks itself
  bool seedAndTimeout = true;     // false: the command has its own --seed and --timeout (`bench`) and sets them
  bool severalEndpoints = false;  // --endpoint repeatable, into `endpoints` (`bench --generator llm`)
};

void addEndpointFlags(CLI::App* command, EndpointFlags& flags, EndpointFlagSet set = {});

/// The chosen endpoint after the file, the environment and the flags, without its key; nullopt after "error: ..."
/// lines on `err` for a bad file, an unknown endpoint or a bad override.
std::optional<llm::Endpoint> resolveEndpoint(const EndpointFlags& flags, std::ostream& err);

/// The client for the chosen endpoint (resolveEndpoint) with its key; nullptr after "error: ..." lines on `err` as
/// resolveEndpoint, or when the key variable is not set.
std::unique_ptr<llm::OpenAiChatClient> openEndpoint(const EndpointFlags& flags, std::ostream& err);

}  // namespace tilecraft::cli

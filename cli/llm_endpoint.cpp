#include "cli/llm_endpoint.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <ostream>

#include "cli/flags.h"
#include "llm/endpoints.h"
#include "llm/openai_client.h"

namespace tilecraft::cli {

void addEndpointFlags(CLI::App* command, EndpointFlags& f, EndpointFlagSet set) {
  command->add_option("--config", f.config, "endpoints file (YAML)")->capture_default_str();
  if (set.severalEndpoints) {
    command->add_option("--endpoint", f.endpoints, "endpoint name in the config (repeatable)")
        ->required(set.endpointRequired);
  } else {
    command->add_option("--endpoint", f.endpoint, "endpoint name in the config")->required(set.endpointRequired);
  }
  command->add_option("--model", f.model, "model instead of the endpoint's (env TILECRAFT_LLM_MODEL)");
  command->add_option("--base-url", f.baseUrl, "base URL instead of the endpoint's (env TILECRAFT_LLM_BASE_URL)");
  command->add_option("--api-key-env", f.apiKeyEnv,
                      "variable holding the key instead of the endpoint's (env TILECRAFT_LLM_API_KEY_ENV)");
  command->add_option("--temperature", f.temperature, "sampling temperature")->check(CLI::Range(0.0, 2.0));
  checkCount(command->add_option("--max-tokens", f.maxTokens, "longest reply in tokens"), 1, int64_t{1} << 31,
             "tokens");
  if (set.seedAndTimeout) {
    checkSeed(command->add_option("--seed", f.seed, "sampling seed (servers that support one)"));
    checkSeconds(command->add_option("--timeout", f.timeout, "seconds to wait for the reply"), false);
  }
  checkCount(command->add_option("--max-attempts", f.maxAttempts, "HTTP requests at most, retries included"), 1, 20,
             "attempts");
  CLI::Option* stream = command->add_flag("--stream", f.stream, "stream the reply (SSE)");
  command->add_flag("--no-stream", f.noStream, "do not stream, whatever the endpoint says")->excludes(stream);
}

std::optional<llm::Endpoint> resolveEndpoint(const EndpointFlags& f, std::ostream& err) {
  llm::EndpointsLoad load = llm::loadEndpoints(f.config);
  for (const llm::EndpointError& e : load.errors) err << "error: " << e.str() << '\n';
  if (!load.errors.empty()) return std::nullopt;
  const llm::Endpoint* found = load.find(f.endpoint);
  if (found == nullptr) {
    err << fmt::format("error: --endpoint {}: no such endpoint in {}; it has: {}\n", f.endpoint, f.config,
                       load.names());
    return std::nullopt;
  }
  llm::Endpoint endpoint = *found;
  llm::EndpointOverrides overrides;
  overrides.baseUrl = f.baseUrl;
  overrides.model = f.model;
  overrides.apiKeyEnv = f.apiKeyEnv;
  if (f.stream) overrides.stream = true;
  if (f.noStream) overrides.stream = false;
  overrides.temperature = f.temperature;
  overrides.maxTokens = f.maxTokens;
  overrides.seed = f.seed;
  overrides.timeout = f.timeout;
  overrides.maxAttempts = f.maxAttempts;
  if (std::string problem = llm::applyOverrides(endpoint, overrides, llm::processEnvironment()); !problem.empty()) {
    err << fmt::format("error: endpoint '{}': {}\n", endpoint.name, problem);
    return std::nullopt;
  }
  return endpoint;
}

std::unique_ptr<llm::OpenAiChatClient> openEndpoint(const EndpointFlags& f, std::ostream& err) {
  std::optional<llm::Endpoint> endpoint = resolveEndpoint(f, err);
  if (!endpoint) return nullptr;
  std::string keyError;
  std::optional<std::string> key = llm::resolveApiKey(*endpoint, llm::processEnvironment(), &keyError);
  if (!key) {
    err << "error: " << keyError << '\n';
    return nullptr;
  }
  return std::make_unique<llm::OpenAiChatClient>(*endpoint, *key);
}

}  // namespace tilecraft::cli

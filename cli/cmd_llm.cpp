// `tilecraft llm chat --config FILE --endpoint NAME [--model M] [--stream] PROMPT`: one chat completion through
// the endpoint's OpenAI-compatible server (docs/generation.md), the reply's text on stdout, or with --json the
// whole reply with its usage and the client's accounting. Exit 0 with a reply, 1 when the server gave none, 2 on a
// usage or configuration error (nothing was sent).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <iterator>
#include <optional>
#include <string>

#include "cli/flags.h"
#include "cli/registry.h"
#include "llm/endpoints.h"
#include "llm/openai_client.h"

namespace tilecraft::cli {
namespace {

struct LlmChatOptions {
  std::string config = "configs/llm.yaml";
  std::string endpoint;
  std::string prompt;
  std::string system;
  std::optional<std::string> model;
  std::optional<std::string> baseUrl;
  std::optional<std::string> apiKeyEnv;
  std::optional<double> temperature;
  std::optional<int64_t> maxTokens;
  std::optional<uint64_t> seed;
  std::optional<double> timeout;
  std::optional<int> maxAttempts;
  int n = 1;
  bool stream = false;
  bool noStream = false;
  bool json = false;
};

nlohmann::json totalsJson(const llm::ChatTotals& t) {
  return {{"calls", t.calls},
          {"failures", t.failures},
          {"requests", t.requests},
          {"retries", t.retries},
          {"prompt_tokens", t.promptTokens},
          {"completion_tokens", t.completionTokens},
          {"seconds", t.seconds},
          {"cost", t.cost}};
}

int runLlmChat(const LlmChatOptions& options, std::ostream& out, std::ostream& err) {
  llm::EndpointsLoad load = llm::loadEndpoints(options.config);
  for (const llm::EndpointError& e : load.errors) err << "error: " << e.str() << '\n';
  if (!load.errors.empty()) return 2;
  const llm::Endpoint* found = load.find(options.endpoint);
  if (found == nullptr) {
    err << fmt::format("error: --endpoint {}: no such endpoint in {}; it has: {}\n", options.endpoint, options.config,
                       load.names());
    return 2;
  }
  llm::Endpoint endpoint = *found;
  llm::EndpointOverrides flags;
  flags.baseUrl = options.baseUrl;
  flags.model = options.model;
  flags.apiKeyEnv = options.apiKeyEnv;
  if (options.stream) flags.stream = true;
  if (options.noStream) flags.stream = false;
  flags.temperature = options.temperature;
  flags.maxTokens = options.maxTokens;
  flags.seed = options.seed;
  flags.timeout = options.timeout;
  flags.maxAttempts = options.maxAttempts;
  llm::EnvLookup env = llm::processEnvironment();
  if (std::string problem = llm::applyOverrides(endpoint, flags, env); !problem.empty()) {
    err << fmt::format("error: endpoint '{}': {}\n", endpoint.name, problem);
    return 2;
  }
  std::string keyError;
  std::optional<std::string> key = llm::resolveApiKey(endpoint, env, &keyError);
  if (!key) {
    err << "error: " << keyError << '\n';
    return 2;
  }

  std::string prompt = options.prompt;
  if (prompt == "-") prompt.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  llm::ChatRequest request;
  if (!options.system.empty()) request.messages.push_back({"system", options.system});
  request.messages.push_back({"user", prompt});
  request.n = options.n;
  llm::OpenAiChatClient client(endpoint, *key);
  llm::ChatResult result = client.complete(request);
  if (!result) {
    err << "error: " << result.error.message << '\n';
    if (options.json) {
      out << nlohmann::json({{"endpoint", endpoint.name},
                             {"error",
                              {{"kind", llm::chatErrorKindName(result.error.kind)},
                               {"status", result.error.status},
                               {"message", result.error.message},
                               {"attempts", result.error.attempts}}},
                             {"accounting", totalsJson(client.totals())}})
                 .dump(2)
          << '\n';
    }
    return 1;
  }
  const llm::ChatReply& reply = *result.reply;
  if (!options.json) {
    for (size_t i = 0; i < reply.choices.size(); ++i) {
      if (reply.choices.size() > 1) out << fmt::format("--- choice {} ---\n", i);
      out << reply.choices[i].content;
      if (!reply.choices[i].content.ends_with('\n')) out << '\n';
    }
    return 0;
  }
  nlohmann::json choices = nlohmann::json::array();
  for (const llm::ChatChoice& c : reply.choices) {
    choices.push_back({{"content", c.content}, {"reasoning", c.reasoning}, {"finish_reason", c.finishReason}});
  }
  out << nlohmann::json(
             {{"endpoint", endpoint.name},
              {"model", reply.model.empty() ? endpoint.model : reply.model},
              {"stream", endpoint.stream},
              {"choices", choices},
              {"usage",
               {{"prompt_tokens", reply.usage.promptTokens}, {"completion_tokens", reply.usage.completionTokens}}},
              {"attempts", reply.attempts},
              {"elapsed_seconds", reply.elapsed},
              {"cost", reply.cost},
              {"accounting", totalsJson(client.totals())}})
             .dump(2)
      << '\n';
  return 0;
}

void registerLlmCommands(CLI::App& app) {
  CLI::App* llm = app.add_subcommand("llm", "Talk to an OpenAI-compatible model endpoint (docs/generation.md)");
  llm->require_subcommand(1);
  auto options = std::make_shared<LlmChatOptions>();
  CLI::App* chat = llm->add_subcommand("chat", "Send one prompt to an endpoint and print the reply");
  chat->add_option("--config", options->config, "endpoints file (YAML)")->capture_default_str();
  chat->add_option("--endpoint", options->endpoint, "endpoint name in the config")->required();
  chat->add_option("--model", options->model, "model instead of the endpoint's (env TILECRAFT_LLM_MODEL)");
  chat->add_option("--base-url", options->baseUrl, "base URL instead of the endpoint's (env TILECRAFT_LLM_BASE_URL)");
  chat->add_option("--api-key-env", options->apiKeyEnv,
                   "variable holding the key instead of the endpoint's (env TILECRAFT_LLM_API_KEY_ENV)");
  chat->add_option("--system", options->system, "a system message before the prompt");
  chat->add_option("--temperature", options->temperature, "sampling temperature")->check(CLI::Range(0.0, 2.0));
  checkCount(chat->add_option("--max-tokens", options->maxTokens, "longest reply in tokens"), 1, int64_t{1} << 31,
             "tokens");
  checkSeed(chat->add_option("--seed", options->seed, "sampling seed (servers that support one)"));
  checkCount(chat->add_option("--n", options->n, "independent choices"), 1, 128, "choices");
  checkSeconds(chat->add_option("--timeout", options->timeout, "seconds to wait for the reply"), false);
  checkCount(chat->add_option("--max-attempts", options->maxAttempts, "HTTP requests at most, retries included"), 1, 20,
             "attempts");
  CLI::Option* stream = chat->add_flag("--stream", options->stream, "stream the reply (SSE)");
  chat->add_flag("--no-stream", options->noStream, "do not stream, whatever the endpoint says")->excludes(stream);
  chat->add_flag("--json", options->json, "the reply with reasoning, usage and accounting as JSON");
  chat->add_option("PROMPT", options->prompt, "the user message ('-': read it from stdin)")->required();
  chat->callback([options] {
    int status = runLlmChat(*options, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("llm", &registerLlmCommands);

}  // namespace
}  // namespace tilecraft::cli

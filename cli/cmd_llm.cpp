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
#include "cli/llm_endpoint.h"
#include "cli/registry.h"
#include "llm/endpoints.h"
#include "llm/openai_client.h"

namespace tilecraft::cli {
namespace {

struct LlmChatOptions {
  EndpointFlags endpoint;
  std::string prompt;
  std::string system;
  int n = 1;
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
  std::unique_ptr<llm::OpenAiChatClient> opened = openEndpoint(options.endpoint, err);
  if (!opened) return 2;
  llm::OpenAiChatClient& client = *opened;
  const llm::Endpoint& endpoint = client.endpoint();

  std::string prompt = options.prompt;
  if (prompt == "-") prompt.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  llm::ChatRequest request;
  if (!options.system.empty()) request.messages.push_back({"system", options.system});
  request.messages.push_back({"user", prompt});
  request.n = options.n;
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
  addEndpointFlags(chat, options->endpoint);
  chat->add_option("--system", options->system, "a system message before the prompt");
  checkCount(chat->add_option("--n", options->n, "independent choices"), 1, 128, "choices");
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

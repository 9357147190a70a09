// Model endpoints from a YAML file (configs/llm.yaml): where a server is, which model, the NAME of the environment
// variable holding its key (never the key), sampling defaults, prices and limits. The file is overridden by the
// environment (TILECRAFT_LLM_BASE_URL, TILECRAFT_LLM_MODEL, TILECRAFT_LLM_API_KEY_ENV), which flags override.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::llm {

struct Endpoint {
  std::string name;
  std::string baseUrl;  // up to and including /v1: the client POSTs to {baseUrl}/chat/completions
  std::string model;
  std::string apiKeyEnv;  // empty: no Authorization header (local servers started without a key)
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int64_t> maxTokens;
  std::optional<uint64_t> seed;
  std::vector<std::string> stop;
  double priceIn = 0;    // currency units per million prompt tokens
  double priceOut = 0;   // per million completion tokens
  int maxInFlight = 4;   // requests at once from one client
  double timeout = 600;  // seconds: connect, each wait for the next byte, and the whole reply
  bool stream = false;
  int maxAttempts = 5;  // HTTP requests per call, retries included
  std::string caCert;   // PEM file to verify an https server with; empty: the system's CA store
  std::string file;     // where the entry was read ("" when built in code), for messages
  int line = 0;
};

// "FILE:LINE: message"; line 0 when the file as a whole is wrong.
struct EndpointError {
  std::string file;
  int line = 0;
  std::string message;
  std::string str() const;
};

struct EndpointsLoad {
  std::vector<Endpoint> endpoints;  // the entries without errors, in file order
  std::vector<EndpointError> errors;
  const Endpoint* find(std::string_view name) const;
  std::string names() const;  // "vllm, ollama, openai" for a message
};

// The file's `endpoints:` list. Every bad field is reported (an unknown field, a wrong type, a value out of
// range, a base_url that is not http(s)://host..., a duplicate name) and drops its entry.
EndpointsLoad loadEndpoints(const std::filesystem::path& file);
EndpointsLoad parseEndpoints(std::string_view yamlText, const std::string& fileName);

// The environment as the client sees it; a test passes a map instead of the process's variables.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
EnvLookup processEnvironment();

// What the command line sets; unset fields leave the endpoint (and the environment's value) alone.
struct EndpointOverrides {
  std::optional<std::string> baseUrl;
  std::optional<std::string> model;
  std::optional<std::string> apiKeyEnv;
  std::optional<bool> stream;
  std::optional<double> temperature;
  std::optional<int64_t> maxTokens;
  std::optional<uint64_t> seed;
  std::optional<double> timeout;
  std::optional<int> maxAttempts;
};

// File < environment < flags. "" when the result is usable, else the message (a base_url from the environment
// or a flag that is not a URL names where it came from).
std::string applyOverrides(Endpoint& endpoint, const EndpointOverrides& flags, const EnvLookup& env);

// The key from the variable the endpoint names; "" with no api_key_env. nullopt with `error` set when the
// variable is unset or empty: the message names the variable and the entry.
std::optional<std::string> resolveApiKey(const Endpoint& endpoint, const EnvLookup& env, std::string* error);

}  // namespace tilecraft::llm

#include "llm/endpoints.h"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <algorithm>
#include <cctype>

#include "llm/http_transport.h"
#include "support/files.h"
#include "support/numbers.h"

namespace tilecraft::llm {

std::string EndpointError::str() const {
  return line > 0 ? fmt::format("{}:{}: {}", file, line, message) : fmt::format("{}: {}", file, message);
}

const Endpoint* EndpointsLoad::find(std::string_view name) const {
  for (const Endpoint& e : endpoints) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::string EndpointsLoad::names() const {
  std::string out;
  for (const Endpoint& e : endpoints) out += (out.empty() ? "" : ", ") + e.name;
  return out.empty() ? "none" : out;
}

namespace {

// clang-format off
const char* const kFields[] = {"name", "base_url", "model", "api_key_env", "temperature", "top_p", "max_tokens",
                               "seed", "stop", "price_in", "price_out", "max_in_flight", "timeout", "stream",
                               "max_attempts", "ca_cert"};
// clang-format on

int lineOf(const YAML::Node& node) { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }

bool isVariableName(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// A value given where a variable name belongs may be the key itself: never print more than its start.
std::string shownStart(const std::string& text) { return text.size() > 12 ? text.substr(0, 6) + "..." : text; }

std::string fieldList() {
  std::string out;
  for (const char* f : kFields) out += (out.empty() ? "" : ", ") + std::string(f);
  return out;
}

// Reads one entry's fields, reporting every problem at the line of the value.
class EntryReader {
 public:
  EntryReader(const std::string& file, std::vector<EndpointError>& errors) : file_(file), errors_(errors) {}

  std::optional<Endpoint> read(const YAML::Node& entry, int index) {
    ok_ = true;
    Endpoint e;
    e.file = file_;
    e.line = lineOf(entry);
    label_ = fmt::format("endpoint entry {}", index + 1);
    if (!entry.IsMap()) {
      error(entry, fmt::format("{} is not a map of fields (name: ..., base_url: ..., model: ...)", label_));
      return std::nullopt;
    }
    if (YAML::Node name = entry["name"]; name && name.IsScalar() && !name.Scalar().empty()) {
      e.name = name.Scalar();
      label_ = fmt::format("endpoint '{}'", e.name);
    }
    for (const auto& field : entry) {
      // Copies: the iterator's value is a temporary, and a reference into it would dangle.
      const YAML::Node keyNode = field.first;
      const YAML::Node value = field.second;
      std::string key = keyNode.Scalar();
      if (key == "api_key") {
        error(keyNode, fmt::format("{}: 'api_key' would put the key itself in the file; name the environment "
                                   "variable that holds it with 'api_key_env' instead",
                                   label_));
      } else if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields)) {
        error(keyNode, fmt::format("{}: unknown field '{}'; the fields are {}", label_, key, fieldList()));
      } else if (key == "name" || key == "base_url" || key == "model" || key == "api_key_env" || key == "ca_cert") {
        std::optional<std::string> text = scalar(value, key);
        if (!text) continue;
        if (key == "name") e.name = *text;
        if (key == "base_url") e.baseUrl = *text;
        if (key == "model") e.model = *text;
        if (key == "api_key_env") e.apiKeyEnv = *text;
        if (key == "ca_cert") e.caCert = *text;
      } else if (key == "temperature") {
        e.temperature = number(value, key, 0, 2);
      } else if (key == "top_p") {
        e.topP = number(value, key, 0, 1);
      } else if (key == "price_in") {
        if (auto v = number(value, key, 0, 1e9)) e.priceIn = *v;
      } else if (key == "price_out") {
        if (auto v = number(value, key, 0, 1e9)) e.priceOut = *v;
      } else if (key == "timeout") {
        if (auto v = number(value, key, 0, support::kMaxSeconds); v && *v == 0) {
          error(value,
                fmt::format("{}: timeout 0 is not a number of seconds in (0, {}]", label_, support::kMaxSeconds));
        } else if (v) {
          e.timeout = *v;
        }
      } else if (key == "max_tokens") {
        e.maxTokens = integer(value, key, 1, int64_t{1} << 31);
      } else if (key == "seed") {
        if (auto v = integer(value, key, 0, INT64_MAX)) e.seed = static_cast<uint64_t>(*v);
      } else if (key == "max_in_flight") {
        if (auto v = integer(value, key, 1, 256)) e.maxInFlight = static_cast<int>(*v);
      } else if (key == "max_attempts") {
        if (auto v = integer(value, key, 1, 20)) e.maxAttempts = static_cast<int>(*v);
      } else if (key == "stream") {
        if (auto v = scalar(value, key)) {
          if (*v == "true" || *v == "false") {
            e.stream = *v == "true";
          } else {
            error(value, fmt::format("{}: stream '{}' is not true or false", label_, *v));
          }
        }
      } else if (key == "stop") {
        e.stop = stopList(value);
      }
    }
    for (const char* required : {"name", "base_url", "model"}) {
      if (!entry[required]) error(entry, fmt::format("{} has no '{}'", label_, required));
    }
    if (!e.baseUrl.empty()) {
      std::string schemeHostPort;
      std::string path;
      if (!splitBaseUrl(e.baseUrl, schemeHostPort, path)) {
        error(entry["base_url"], fmt::format("{}: base_url '{}' is not http://HOST[:PORT]/PATH or https://...; "
                                             "e.g. http://127.0.0.1:8000/v1",
                                             label_, e.baseUrl));
      }
    }
    if (!e.apiKeyEnv.empty() && !isVariableName(e.apiKeyEnv)) {
      error(entry["api_key_env"], fmt::format("{}: api_key_env '{}' is not an environment variable name (letters, "
                                              "digits, '_'); it names the variable that holds the key, e.g. "
                                              "OPENAI_API_KEY",
                                              label_, shownStart(e.apiKeyEnv)));
    }
    if (!ok_) return std::nullopt;
    return e;
  }

 private:
  void error(const YAML::Node& at, std::string message) {
    errors_.push_back({file_, lineOf(at), std::move(message)});
    ok_ = false;
  }

  std::optional<std::string> scalar(const YAML::Node& value, const std::string& key) {
    if (!value.IsScalar()) {
      error(value, fmt::format("{}: {} must be a single value, not a list or a map", label_, key));
      return std::nullopt;
    }
    return value.Scalar();
  }

  std::optional<double> number(const YAML::Node& value, const std::string& key, double lo, double hi) {
    std::optional<std::string> text = scalar(value, key);
    if (!text) return std::nullopt;
    std::optional<double> v = support::parseFiniteDouble(*text);
    if (!v || *v < lo || *v > hi) {
      error(value, fmt::format("{}: {} '{}' is not a number from {} to {}", label_, key, *text, lo, hi));
      return std::nullopt;
    }
    return v;
  }

  std::optional<int64_t> integer(const YAML::Node& value, const std::string& key, int64_t lo, int64_t hi) {
    std::optional<std::string> text = scalar(value, key);
    if (!text) return std::nullopt;
    std::optional<int64_t> v = support::parseInt64(*text);
    if (!v || *v < lo || *v > hi) {
      error(value, fmt::format("{}: {} '{}' is not a whole number from {} to {}", label_, key, *text, lo, hi));
      return std::nullopt;
    }
    return v;
  }

  std::vector<std::string> stopList(const YAML::Node& value) {
    std::vector<std::string> out;
    if (value.IsScalar()) return {value.Scalar()};
    if (value.IsSequence()) {
      for (const YAML::Node& item : value) {
        if (!item.IsScalar()) {
          error(item, fmt::format("{}: each stop entry must be a string", label_));
          continue;
        }
        out.push_back(item.Scalar());
      }
      return out;
    }
    error(value, fmt::format("{}: stop must be a string or a list of strings", label_));
    return out;
  }

  const std::string& file_;
  std::vector<EndpointError>& errors_;
  std::string label_;
  bool ok_ = true;
};

}  // namespace

EndpointsLoad parseEndpoints(std::string_view yamlText, const std::string& fileName) {
  EndpointsLoad load;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yamlText));
  } catch (const YAML::Exception& e) {
    load.errors.push_back({fileName, e.mark.line >= 0 ? e.mark.line + 1 : 0, "not valid YAML: " + e.msg});
    return load;
  }
  YAML::Node list = root.IsMap() ? root["endpoints"] : YAML::Node();
  if (!list || !list.IsSequence()) {
    load.errors.push_back({fileName, list ? lineOf(list) : 1,
                           "expected a top-level 'endpoints:' list, one entry per server (- name: ..., base_url: "
                           "..., model: ...)"});
    return load;
  }
  EntryReader reader(fileName, load.errors);
  std::map<std::string, int> firstLine;
  for (size_t i = 0; i < list.size(); ++i) {
    std::optional<Endpoint> e = reader.read(list[i], static_cast<int>(i));
    if (!e) continue;
    if (auto [it, fresh] = firstLine.emplace(e->name, e->line); !fresh) {
      load.errors.push_back(
          {fileName, e->line,
           fmt::format("endpoint '{}' is defined twice (first at {}:{})", e->name, fileName, it->second)});
      continue;
    }
    load.endpoints.push_back(std::move(*e));
  }
  return load;
}

EndpointsLoad loadEndpoints(const std::filesystem::path& file) {
  std::optional<std::string> text = support::readFile(file);
  if (!text) {
    EndpointsLoad load;
    load.errors.push_back({file.string(), 0, "cannot read the endpoints file"});
    return load;
  }
  return parseEndpoints(*text, file.string());
}

EnvLookup processEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

std::string applyOverrides(Endpoint& endpoint, const EndpointOverrides& flags, const EnvLookup& env) {
  struct Source {
    std::optional<std::string> flag;
    const char* variable;
    std::string* field;
  };
  std::string baseUrlFrom = endpoint.file.empty() ? "the endpoint" : fmt::format("{}:{}", endpoint.file, endpoint.line);
  for (Source s : {Source{flags.baseUrl, "TILECRAFT_LLM_BASE_URL", &endpoint.baseUrl},
                   Source{flags.model, "TILECRAFT_LLM_MODEL", &endpoint.model},
                   Source{flags.apiKeyEnv, "TILECRAFT_LLM_API_KEY_ENV", &endpoint.apiKeyEnv}}) {
    if (s.flag) {
      *s.field = *s.flag;
      if (s.field == &endpoint.baseUrl) baseUrlFrom = "--base-url";
    } else if (std::optional<std::string> value = env(s.variable); value && !value->empty()) {
      *s.field = *value;
      if (s.field == &endpoint.baseUrl) baseUrlFrom = s.variable;
    }
  }
  if (flags.stream) endpoint.stream = *flags.stream;
  if (flags.temperature) endpoint.temperature = flags.temperature;
  if (flags.maxTokens) endpoint.maxTokens = flags.maxTokens;
  if (flags.seed) endpoint.seed = flags.seed;
  if (flags.timeout) endpoint.timeout = *flags.timeout;
  if (flags.maxAttempts) endpoint.maxAttempts = *flags.maxAttempts;
  std::string schemeHostPort;
  std::string path;
  if (!splitBaseUrl(endpoint.baseUrl, schemeHostPort, path)) {
    return fmt::format(
        "base_url '{}' (from {}) is not http://HOST[:PORT]/PATH or https://...; e.g. "
        "http://127.0.0.1:8000/v1",
        endpoint.baseUrl, baseUrlFrom);
  }
  if (!endpoint.apiKeyEnv.empty() && !isVariableName(endpoint.apiKeyEnv)) {
    return fmt::format(
        "api_key_env '{}' is not an environment variable name; it names the variable that holds "
        "the key, e.g. OPENAI_API_KEY",
        shownStart(endpoint.apiKeyEnv));
  }
  return "";
}

std::optional<std::string> resolveApiKey(const Endpoint& endpoint, const EnvLookup& env, std::string* error) {
  if (endpoint.apiKeyEnv.empty()) return std::string();
  std::optional<std::string> key = env(endpoint.apiKeyEnv);
  if (key && !key->empty()) return key;
  std::string where = endpoint.file.empty() ? "" : fmt::format(" ({}:{})", endpoint.file, endpoint.line);
  *error = fmt::format(
      "endpoint '{}'{}: the API key variable {} is {}; export {}=<your key>, or point api_key_env "
      "(or TILECRAFT_LLM_API_KEY_ENV) at the variable that holds it",
      endpoint.name, where, endpoint.apiKeyEnv, key ? "empty" : "not set", endpoint.apiKeyEnv);
  return std::nullopt;
}

}  // namespace tilecraft::llm

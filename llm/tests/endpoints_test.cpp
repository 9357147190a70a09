// Endpoint files: the shipped one, every kind of bad row with its FILE:LINE, overrides, the key variable.
#include <gtest/gtest.h>

#include <map>

#include "llm/endpoints.h"

namespace tilecraft::llm {
namespace {

EnvLookup fakeEnv(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(LlmEndpoints, ShippedConfigLoadsCleanWithEveryServer) {
  EndpointsLoad load = loadEndpoints(TILECRAFT_SOURCE_DIR "/configs/llm.yaml");
  for (const EndpointError& e : load.errors) ADD_FAILURE() << e.str();
  EXPECT_EQ(load.names(), "vllm, sglang, ollama, llamacpp, openai, deepseek");
  EXPECT_EQ(load.find("vllm")->baseUrl, "http://127.0.0.1:8000/v1");
  EXPECT_EQ(load.find("ollama")->baseUrl, "http://127.0.0.1:11434/v1");
  EXPECT_EQ(load.find("llamacpp")->baseUrl, "http://127.0.0.1:8080/v1");
  EXPECT_EQ(load.find("deepseek")->baseUrl, "https://api.deepseek.com/v1");
  EXPECT_EQ(load.find("deepseek")->apiKeyEnv, "DEEPSEEK_API_KEY");
  EXPECT_TRUE(load.find("deepseek")->stream);
  EXPECT_EQ(load.find("openai")->apiKeyEnv, "OPENAI_API_KEY");
  EXPECT_EQ(load.find("vllm")->apiKeyEnv, "");
}

TEST(LlmEndpoints, EveryFieldIsRead) {
  EndpointsLoad load = parseEndpoints(R"(endpoints:
  - name: full
    base_url: https://example.com:8443/v1/
    model: big
    api_key_env: MY_KEY
    temperature: 0.7
    top_p: 0.95
    max_tokens: 2048
    seed: 123
    stop: ["END", "```"]
    price_in: 0.5
    price_out: 1.5
    max_in_flight: 16
    timeout: 30
    stream: true
    max_attempts: 3
    ca_cert: /etc/ssl/private-ca.pem
)",
                                      "t.yaml");
  ASSERT_TRUE(load.errors.empty()) << load.errors[0].str();
  const Endpoint& e = load.endpoints.at(0);
  EXPECT_EQ(e.baseUrl, "https://example.com:8443/v1/");
  EXPECT_EQ(e.model, "big");
  EXPECT_EQ(e.apiKeyEnv, "MY_KEY");
  EXPECT_EQ(e.temperature, 0.7);
  EXPECT_EQ(e.topP, 0.95);
  EXPECT_EQ(e.maxTokens, 2048);
  EXPECT_EQ(e.seed, 123u);
  EXPECT_EQ(e.stop, (std::vector<std::string>{"END", "```"}));
  EXPECT_EQ(e.priceIn, 0.5);
  EXPECT_EQ(e.priceOut, 1.5);
  EXPECT_EQ(e.maxInFlight, 16);
  EXPECT_EQ(e.timeout, 30);
  EXPECT_TRUE(e.stream);
  EXPECT_EQ(e.maxAttempts, 3);
  EXPECT_EQ(e.caCert, "/etc/ssl/private-ca.pem");
  EXPECT_EQ(e.file, "t.yaml");
  EXPECT_EQ(e.line, 2);
}

TEST(LlmEndpoints, BadRowsAreReportedAtTheirLines) {
  EndpointsLoad load = parseEndpoints(R"(endpoints:
  - name: good
    base_url: http://127.0.0.1:8000/v1
    model: m
  - name: ftp
    base_url: ftp://host/v1
    model: m
  - name: typo
    base_url: http://h:1/v1
    model: m
    tempreature: 0.5
  - name: values
    base_url: http://h:1/v1
    model: m
    temperature: hot
    max_in_flight: 0
    stream: yes
    api_key: sk-live-abcdefghijklmnop
    api_key_env: sk-live-abcdefghijklmnop
  - model: m
  - name: good
    base_url: http://h:2/v1
    model: m2
)",
                                      "bad.yaml");
  std::vector<std::string> got;
  for (const EndpointError& e : load.errors) got.push_back(e.str());
  std::vector<std::string> want = {
      "bad.yaml:6: endpoint 'ftp': base_url 'ftp://host/v1' is not http://HOST[:PORT]/PATH or https://...; e.g. "
      "http://127.0.0.1:8000/v1",
      "bad.yaml:11: endpoint 'typo': unknown field 'tempreature'; the fields are name, base_url, model, "
      "api_key_env, temperature, top_p, max_tokens, seed, stop, price_in, price_out, max_in_flight, timeout, "
      "stream, max_attempts, ca_cert",
      "bad.yaml:15: endpoint 'values': temperature 'hot' is not a number from 0 to 2",
      "bad.yaml:16: endpoint 'values': max_in_flight '0' is not a whole number from 1 to 256",
      "bad.yaml:17: endpoint 'values': stream 'yes' is not true or false",
      "bad.yaml:18: endpoint 'values': 'api_key' would put the key itself in the file; name the environment "
      "variable that holds it with 'api_key_env' instead",
      "bad.yaml:19: endpoint 'values': api_key_env 'sk-liv...' is not an environment variable name (letters, "
      "digits, '_'); it names the variable that holds the key, e.g. OPENAI_API_KEY",
      "bad.yaml:20: endpoint entry 5 has no 'name'",
      "bad.yaml:20: endpoint entry 5 has no 'base_url'",
      "bad.yaml:21: endpoint 'good' is defined twice (first at bad.yaml:2)",
  };
  EXPECT_EQ(got, want);
  EXPECT_EQ(load.names(), "good");
}

TEST(LlmEndpoints, FileLevelErrors) {
  EXPECT_EQ(parseEndpoints("endpoints: [\n  {name: a\n", "x.yaml").errors.at(0).str().substr(0, 24),
            "x.yaml:3: not valid YAML");
  EXPECT_EQ(parseEndpoints("servers:\n  - name: a\n", "x.yaml").errors.at(0).str(),
            "x.yaml:1: expected a top-level 'endpoints:' list, one entry per server (- name: ..., base_url: ..., "
            "model: ...)");
  EXPECT_EQ(loadEndpoints("/nonexistent/llm.yaml").errors.at(0).str(),
            "/nonexistent/llm.yaml: cannot read the endpoints file");
}

Endpoint local() {
  EndpointsLoad load =
      parseEndpoints("endpoints:\n  - name: a\n    base_url: http://127.0.0.1:8000/v1\n    model: m\n", "c.yaml");
  return load.endpoints.at(0);
}

TEST(LlmEndpoints, EnvironmentOverridesTheFileAndFlagsOverrideBoth) {
  Endpoint e = local();
  EnvLookup env = fakeEnv({{"TILECRAFT_LLM_BASE_URL", "http://10.0.0.2:9000/v1"},
                           {"TILECRAFT_LLM_MODEL", "env-model"},
                           {"TILECRAFT_LLM_API_KEY_ENV", "ENV_KEY"}});
  EXPECT_EQ(applyOverrides(e, {}, env), "");
  EXPECT_EQ(e.baseUrl, "http://10.0.0.2:9000/v1");
  EXPECT_EQ(e.model, "env-model");
  EXPECT_EQ(e.apiKeyEnv, "ENV_KEY");
  EndpointOverrides flags;
  flags.model = "flag-model";
  flags.stream = true;
  flags.maxAttempts = 2;
  Endpoint f = local();
  EXPECT_EQ(applyOverrides(f, flags, env), "");
  EXPECT_EQ(f.model, "flag-model");
  EXPECT_EQ(f.baseUrl, "http://10.0.0.2:9000/v1");
  EXPECT_TRUE(f.stream);
  EXPECT_EQ(f.maxAttempts, 2);

  Endpoint g = local();
  EXPECT_EQ(applyOverrides(g, {}, fakeEnv({{"TILECRAFT_LLM_BASE_URL", "localhost:8000"}})),
            "base_url 'localhost:8000' (from TILECRAFT_LLM_BASE_URL) is not http://HOST[:PORT]/PATH or https://...; "
            "e.g. http://127.0.0.1:8000/v1");
}

TEST(LlmEndpoints, MissingKeyVariableIsNamed) {
  Endpoint e = local();
  e.apiKeyEnv = "OPENAI_API_KEY";
  std::string error;
  EXPECT_EQ(resolveApiKey(e, fakeEnv({}), &error), std::nullopt);
  EXPECT_EQ(error,
            "endpoint 'a' (c.yaml:2): the API key variable OPENAI_API_KEY is not set; export OPENAI_API_KEY=<your "
            "key>, or point api_key_env (or TILECRAFT_LLM_API_KEY_ENV) at the variable that holds it");
  EXPECT_EQ(resolveApiKey(e, fakeEnv({{"OPENAI_API_KEY", ""}}), &error), std::nullopt);
  EXPECT_NE(error.find("OPENAI_API_KEY is empty"), std::string::npos);
  EXPECT_EQ(resolveApiKey(e, fakeEnv({{"OPENAI_API_KEY", "sk-1"}}), &error), "sk-1");
  e.apiKeyEnv = "";
  EXPECT_EQ(resolveApiKey(e, fakeEnv({}), &error), "");
}

}  // namespace
}  // namespace tilecraft::llm

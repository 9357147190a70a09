// scripted_llm_server --script FILE [--log FILE] [--port N] [--tls-cert PEM --tls-key PEM]
// Serves the script's replies on 127.0.0.1, prints "listening on http://127.0.0.1:PORT/v1" once it accepts
// connections, and runs until SIGTERM or SIGINT. Exit 2 on a bad script or flag, 1 when it cannot listen.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

#include "llm/tests/scripted_server/scripted_server.h"
#include "support/files.h"

int main(int argc, char** argv) {
  CLI::App app{"An OpenAI-compatible server that answers from a script (docs/generation.md)", "scripted_llm_server"};
  std::string script;
  int port = 0;
  tilecraft::llm::testing::ScriptedServerOptions options;
  app.add_option("--script", script, "JSON lines, one reply per request")->required();
  app.add_option("--log", options.logPath, "every request received, as JSON lines");
  app.add_option("--port", port, "port on 127.0.0.1 (default: a free one)")->check(CLI::Range(0, 65535));
  app.add_option("--tls-cert", options.tlsCertPath, "serve HTTPS with this PEM certificate");
  app.add_option("--tls-key", options.tlsKeyPath, "and this PEM private key");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  std::optional<std::string> text = tilecraft::support::readFile(script);
  if (!text) {
    std::cerr << "error: cannot read the script '" << script << "'\n";
    return 2;
  }
  // Blocked before any thread starts, so only sigwait below sees them.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGTERM);
  sigaddset(&stopSignals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
  std::string error;
  auto server = tilecraft::llm::testing::ScriptedServer::create(*text, script, options, &error);
  if (!server) {
    std::cerr << "error: " << error << '\n';
    return 2;
  }
  int bound = server->start(port, &error);
  if (bound == 0) {
    std::cerr << "error: " << error << '\n';
    return 1;
  }
  bool tls = !options.tlsCertPath.empty() && !options.tlsKeyPath.empty();
  std::cout << "listening on " << (tls ? "https" : "http") << "://127.0.0.1:" << bound << "/v1" << std::endl;
  int signal = 0;
  sigwait(&stopSignals, &signal);
  server->stop();
  return 0;
}

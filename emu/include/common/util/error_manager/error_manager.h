// CANN's error-message collector (metadef's common/util/error_manager/error_manager.h: ErrorManager,
// REPORT_INNER_ERROR, REPORT_CALL_ERROR, ...), which cann-ops' error macros report to beside their log line
// (log/inner/dfx_base.h). Here the reports are kept in process, in order, for GetErrorMessage to return (and
// clear) or OutputErrMessage to write to a file descriptor; nothing is printed on its own.
#pragma once

#include <unistd.h>

#include <cinttypes>
#include <cstdlib>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace error_message {
using char_t = char;

// The file name without its folders.
inline std::string TrimPath(const std::string& str) {
  size_t slash = str.find_last_of('/');
  return slash == std::string::npos ? str : str.substr(slash + 1);
}

// vsnprintf into str_dst[0, dst_max): the length, or -1 when it does not fit (str_dst then holds what fits).
__attribute__((format(printf, 3, 4))) inline int32_t FormatErrorMessage(char_t* str_dst, size_t dst_max,
                                                                        const char_t* format, ...) {
  if (str_dst == nullptr || dst_max == 0 || format == nullptr) return -1;
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(str_dst, dst_max, format, args);
  va_end(args);
  return n < 0 || static_cast<size_t>(n) >= dst_max ? -1 : n;
}

struct Context {
  uint64_t work_stream_id;
  std::string first_stage;
  std::string second_stage;
  std::string log_header;
};

enum class ErrorMsgMode : uint32_t { INTERNAL_MODE = 0U, PROCESS_MODE = 1U, ERR_MSG_MODE_MAX = 2U };

struct ErrorItem {
  std::string error_id;
  std::string error_message;
  std::string possible_cause;
  std::string solution;
  std::map<std::string, std::string> args_map;
  std::string report_time;
  friend bool operator==(const ErrorItem& lhs, const ErrorItem& rhs) noexcept {
    return lhs.error_id == rhs.error_id && lhs.error_message == rhs.error_message &&
           lhs.possible_cause == rhs.possible_cause && lhs.solution == rhs.solution;
  }
};

void ReportInnerError(const char_t* file_name, const char_t* func, uint32_t line, const std::string error_code,
                      const char_t* format, ...) __attribute__((format(printf, 5, 6)));
}  // namespace error_message

constexpr size_t const LIMIT_PER_MESSAGE = 1024U;

class ErrorManager {
 public:
  using ErrorItem = error_message::ErrorItem;
  static ErrorManager& GetInstance() {
    static ErrorManager instance;
    return instance;
  }
  // There is no message catalogue to load: every Init succeeds.
  int32_t Init() { return 0; }
  int32_t Init(error_message::ErrorMsgMode error_mode) {
    (void)error_mode;
    return 0;
  }
  int32_t Init(const std::string path) {
    (void)path;
    return 0;
  }
  int32_t ReportInterErrMessage(const std::string error_code, const std::string& error_msg) {
    return add(error_code, error_msg, {});
  }
  int32_t ReportErrMessage(const std::string error_code, const std::map<std::string, std::string>& args_map) {
    std::string msg;
    for (const auto& [key, value] : args_map) msg += (msg.empty() ? "" : ", ") + key + ": " + value;
    return add(error_code, msg, args_map);
  }
  int32_t ReportErrMsgWithoutTpl(const std::string& error_code, const std::string& errmsg) {
    return add(error_code, errmsg, {});
  }
  void ATCReportErrMessage(const std::string error_code, const std::vector<std::string>& key = {},
                           const std::vector<std::string>& value = {}) {
    std::map<std::string, std::string> args;
    for (size_t i = 0; i < key.size() && i < value.size(); ++i) args[key[i]] = value[i];
    ReportErrMessage(error_code, args);
  }
  // Every report so far, one `CODE: message` line each; the reports are then cleared.
  std::string GetErrorMessage() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string text;
    for (const ErrorItem& e : errors_) text += e.error_id + ": " + e.error_message + "\n";
    errors_.clear();
    return text;
  }
  std::vector<ErrorItem> GetRawErrorMessages() {
    std::lock_guard<std::mutex> lock(mutex_);
    return errors_;
  }
  std::string GetWarningMessage() { return ""; }
  int32_t OutputErrMessage(int32_t handle) {
    std::string text = GetErrorMessage();
    return write(handle, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? 0 : -1;
  }
  int32_t OutputMessage(int32_t handle) { return OutputErrMessage(handle); }
  const std::string& GetLogHeader() { return context_.log_header; }
  error_message::Context& GetErrorManagerContext() { return context_; }
  void SetErrorContext(error_message::Context error_context) { context_ = std::move(error_context); }
  void SetStage(const std::string& first_stage, const std::string& second_stage) {
    context_.first_stage = first_stage;
    context_.second_stage = second_stage;
  }

 private:
  ErrorManager() = default;
  ~ErrorManager() = default;
  ErrorManager(const ErrorManager&) = delete;
  ErrorManager& operator=(const ErrorManager&) = delete;
  int32_t add(const std::string& code, const std::string& msg, const std::map<std::string, std::string>& args) {
    std::lock_guard<std::mutex> lock(mutex_);
    ErrorItem item;
    item.error_id = code;
    item.error_message = msg;
    item.args_map = args;
    errors_.push_back(std::move(item));
    return 0;
  }
  std::mutex mutex_;
  std::vector<ErrorItem> errors_;
  error_message::Context context_{};
};

// The message is cut at LIMIT_PER_MESSAGE bytes; the report names the reporting function and line.
inline void error_message::ReportInnerError(const char_t* file_name, const char_t* func, uint32_t line,
                                            const std::string error_code, const char_t* format, ...) {
  char msg[LIMIT_PER_MESSAGE];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(msg, sizeof(msg), format, args);
  va_end(args);
  if (n < 0) msg[0] = '\0';
  std::string where = "[" + TrimPath(file_name) + ":" + std::to_string(line) + "][" + func + "] ";
  ErrorManager::GetInstance().ReportInterErrMessage(error_code, where + msg);
}

#define REPORT_INPUT_ERROR(error_code, key, value) \
  ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
#define REPORT_ENV_ERROR(error_code, key, value) ErrorManager::GetInstance().ATCReportErrMessage(error_code, key, value)
#define REPORT_INNER_ERROR(error_code, fmt, ...) \
  error_message::ReportInnerError(__FILE__, &__FUNCTION__[0], __LINE__, (error_code), (fmt), ##__VA_ARGS__)
#define REPORT_CALL_ERROR REPORT_INNER_ERROR

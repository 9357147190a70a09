// MultiKernelBench's AscendC submission: one Python snippet that defines six strings (project_json_src,
// host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src; docs/projects.md §6). Its pipeline
// writes them into an msopgen project and builds that; here the snippet is read without being run (the strings
// must be literals) and unpacked into the same layout, which `tilecraft project run` then builds and runs on the
// emulator. Every unpacked file keeps a line map, so a compiler error or a failed check names the snippet's own
// line and column.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tilecraft::project {

// One string of the snippet, decoded as Python decodes it; line k of `value` (from 1) starts at the snippet's line
// lines[k-1], column columns[k-1].
struct SnippetString {
  std::string value;
  std::vector<int> lines;
  std::vector<int> columns;
};

// Every top-level `NAME = <string literal>...` of the snippet, by name (a later assignment wins, as in Python).
// Errors are "FILE:LINE:COL: error: ...", with a hint line where one helps.
bool readSnippetStrings(const std::string& path, const std::string& text, std::map<std::string, SnippetString>& out,
                        std::vector<std::string>& errors);

// An unpacked file whose lines come from a snippet string.
struct SourceMap {
  std::string file;    // absolute path of the unpacked file
  std::string source;  // the snippet, as the user named it
  std::vector<int> lines, columns;
};

// FILE:LINE[:COL] of an unpacked file rewritten as the snippet's SOURCE:LINE[:COL].
std::string mapSourceLines(std::string text, const std::vector<SourceMap>& maps);

// Whether `path` names a snippet rather than a project folder: a .py file.
bool isSnippetPath(const std::string& path);

// A submission read: its strings, and its operator's snake-case name (AddCustom -> add_custom).
struct Submission {
  std::map<std::string, SnippetString> strings;
  std::string name;
};

// Reads a submission's text: every string, the four sources a project needs present, the op description's
// operator. false with `error` set (the messages, one per line) when it is not a submission.
bool readSubmission(const std::string& path, const std::string& text, Submission& out, std::string& error);

// Writes the project of the snippet at `path` into `dir` (created; its op_host/ and op_kernel/ replaced): the op
// description as <op>.json, op_host/<op>_tiling.h, op_host/<op>.cpp, op_kernel/<op>.cpp, with <op> the snake case
// of the JSON's "op" (AddCustom -> add_custom), and, when the snippet has them, the binding as
// CppExtension/csrc/op.cpp and the model as model_new.py (kept for reading: they need torch_npu). `maps` gets the
// line map of each C++ file. false with `error` set (the messages, one per line) when the snippet cannot be read.
bool unpackSnippet(const std::string& path, const std::filesystem::path& dir, std::vector<SourceMap>& maps,
                   std::string& error);

// The reverse: the submission of an msopgen project folder (its one op description `<op>.json` and the files above),
// each string a raw literal holding its file byte for byte, so that unpacking gives the same files back.
bool packSubmission(const std::filesystem::path& dir, std::string& text, std::string& error);

}  // namespace tilecraft::project

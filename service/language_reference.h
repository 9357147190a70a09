// docs/language.md, embedded at build time, and its sections by number or title: what the MCP server's
// language_reference tool returns and the agents' prompts are made of.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::service {

std::string_view languageReferenceText();
// docs/emulator.md and docs/projects.md, embedded the same way: the AscendC API and host API the emulator provides.
std::string_view emulatorGuideText();
std::string_view projectsGuideText();

struct DocSection {
  std::string number;  // "7" for "## 7. Data movement"; "" for an unnumbered one
  std::string title;   // "Data movement"
  std::string text;    // from its heading to the next level-2 heading
};

// The level-2 sections of a markdown text (headings inside code fences are not headings).
std::vector<DocSection> splitSections(std::string_view markdown);

// The section whose number is `key`, else the first whose title contains `key` (case-insensitive).
std::optional<DocSection> findSection(std::string_view markdown, const std::string& key);

}  // namespace tilecraft::service

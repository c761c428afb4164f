// What cw-inspect's page shows after it ran in headless Chromium: the #out element's data
// attributes (status, length, from, to, reason) and its text, read from Chromium's DOM dump.
#pragma once

#include "test_files.h"

#include <map>
#include <string>

namespace clearway::test {

// Virtual time lets the page finish and V8 compiles WebAssembly synchronously, but on a loaded
// machine the dump can still come while the runtime starts ("loading"): then it is taken again.
inline std::string pageDom(const std::string& html, const std::string& hash) {
    std::string dom;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const std::string profile = makeTempDir("cw-page-profile");
        dom.clear();
        runTool("chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync "
                "--virtual-time-budget=20000 --js-flags=--no-wasm-async-compilation --window-size=1300,900 "
                "--user-data-dir=" + profile + " --dump-dom 'file://" + html + hash + "' 2>/dev/null",
                &dom);
        runTool("rm -rf " + profile);
        if (dom.find("data-status=\"loading\"") == std::string::npos) break;
    }
    return dom;
}

inline std::map<std::string, std::string> pageAnswer(const std::string& html, const std::string& hash) {
    const std::string dom = pageDom(html, hash);
    std::map<std::string, std::string> answer;
    const size_t at = dom.find("<div id=\"out\"");
    if (at == std::string::npos) return answer;
    const size_t close = dom.find('>', at), text_end = dom.find('<', close);
    for (size_t i = dom.find(" data-", at); i < close; i = dom.find(" data-", i + 1)) {
        const size_t eq = dom.find("=\"", i), end = dom.find('"', eq + 2);
        answer[dom.substr(i + 6, eq - i - 6)] = dom.substr(eq + 2, end - eq - 2);
    }
    answer["text"] = dom.substr(close + 1, text_end - close - 1);
    return answer;
}

} // namespace clearway::test

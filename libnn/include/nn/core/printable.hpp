// Text from files made safe for a terminal or a CI log: control characters and invalid UTF-8 escaped.
#pragma once
#include <string>
#include <string_view>

namespace nn {

// `text` with every control character (C0, DEL, and C1 such as U+009B, the one-character CSI) and every byte
// that is not part of valid UTF-8 written as an escape: "\x1b", "\xff", "\u009b". Valid UTF-8 (Japanese
// names, say) is kept as it is, and so are line feeds and tabs when keep_newlines (multi-line output).
std::string printable(std::string_view text, bool keep_newlines = false);

}  // namespace nn

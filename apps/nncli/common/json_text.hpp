// JSON text of nncli's outputs: JSON escapes control characters itself; bytes that are not UTF-8 (names from a
// damaged or hostile file) become U+FFFD instead of an exception.
#pragma once
#include <string>

namespace nncli {

template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace nncli

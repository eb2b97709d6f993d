// Renders DOT text to a file through the Graphviz library (libgvc: dot layout, then the format's renderer).
#pragma once
#include <string>

namespace nncli {

// Lays the graph out with 'dot' and writes it as `format` (png, svg, pdf, dot, ...) to path, atomically.
// Graphviz's own complaints (an unknown format, a syntax error) become the nn::Error message.
void render_dot(const std::string& dot_text, const std::string& format, const std::string& path);

}  // namespace nncli

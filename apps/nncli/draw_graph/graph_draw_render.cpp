// DOT text -> image file through libgvc (agmemread, gvLayout, gvRenderFilename); no 'dot' process is run.
#include "draw_graph/graph_draw_render.hpp"

#include <graphviz/gvc.h>

#include <memory>
#include <mutex>

#include "formats/common/atomic_file.hpp"
#include "nn/core/error.hpp"
#include "nn/core/lazy_library.hpp"

// Graphviz (libgvc, libcgraph and their plugins) is opened when draw_graph renders.
namespace nncli {
namespace {
struct GraphvizApi {
  decltype(&agclose) f_agclose;
  decltype(&agmemread) f_agmemread;
  decltype(&agseterr) f_agseterr;
  decltype(&agseterrf) f_agseterrf;
  decltype(&gvContext) f_gvContext;
  decltype(&gvFreeLayout) f_gvFreeLayout;
  decltype(&gvLayout) f_gvLayout;
  decltype(&gvRenderFilename) f_gvRenderFilename;
};
const GraphvizApi& graphviz_api() {
  static const GraphvizApi api = [] {
    void* lib = nn::open_lazy_library({NNCLI_GVC_LIBRARY, "libgvc.so.6"}, "Graphviz (libgvc)", RTLD_GLOBAL);
    GraphvizApi a{};
    nn::lazy_symbol(lib, "agclose", a.f_agclose);
    nn::lazy_symbol(lib, "agmemread", a.f_agmemread);
    nn::lazy_symbol(lib, "agseterr", a.f_agseterr);
    nn::lazy_symbol(lib, "agseterrf", a.f_agseterrf);
    nn::lazy_symbol(lib, "gvContext", a.f_gvContext);
    nn::lazy_symbol(lib, "gvFreeLayout", a.f_gvFreeLayout);
    nn::lazy_symbol(lib, "gvLayout", a.f_gvLayout);
    nn::lazy_symbol(lib, "gvRenderFilename", a.f_gvRenderFilename);
    return a;
  }();
  return api;
}
}  // namespace
}  // namespace nncli
#define agclose nncli::graphviz_api().f_agclose
#define agmemread nncli::graphviz_api().f_agmemread
#define agseterr nncli::graphviz_api().f_agseterr
#define agseterrf nncli::graphviz_api().f_agseterrf
#define gvContext nncli::graphviz_api().f_gvContext
#define gvFreeLayout nncli::graphviz_api().f_gvFreeLayout
#define gvLayout nncli::graphviz_api().f_gvLayout
#define gvRenderFilename nncli::graphviz_api().f_gvRenderFilename

namespace nncli {

namespace {

// Graphviz reports problems through a global callback; they are collected here while one call runs.
std::string& graphviz_messages() {
  static std::string messages;
  return messages;
}

int collect_message(char* text) {
  std::string& messages = graphviz_messages();
  if (messages.size() < 4096) messages += text;
  return 0;
}

std::string first_line(std::string text) {
  const size_t newline = text.find('\n');
  if (newline != std::string::npos) text.resize(newline);
  return text.empty() ? "unknown Graphviz error" : text;
}

struct GraphCloser {
  void operator()(Agraph_t* g) const { agclose(g); }
};

}  // namespace

void render_dot(const std::string& dot_text, const std::string& format, const std::string& path) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  graphviz_messages().clear();
  agseterrf(collect_message);
  agseterr(AGWARN);
  static GVC_t* const context = gvContext();
  NN_CHECK(context) << "cannot start the Graphviz library";
  std::unique_ptr<Agraph_t, GraphCloser> graph(agmemread(dot_text.c_str()));
  NN_CHECK(graph) << "Graphviz cannot read the graph: " << first_line(graphviz_messages());
  NN_CHECK(gvLayout(context, graph.get(), "dot") == 0)
      << "Graphviz layout failed: " << first_line(graphviz_messages());
  nn::formats::AtomicFile out(path);
  const int rc = gvRenderFilename(context, graph.get(), format.c_str(), out.temp_path().c_str());
  gvFreeLayout(context, graph.get());
  NN_CHECK(rc == 0) << "'" << path << "': Graphviz cannot write format '" << format
                    << "': " << first_line(graphviz_messages());
  out.commit();
}

}  // namespace nncli

// CSRC files around the inference code: parameter arrays, the public header, the example main, GNUmakefile.
#include "formats/csrc/csrc_writer.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "formats/common/atomic_file.hpp"
#include "formats/csrc/csrc_plan.hpp"
#include "nn/core/error.hpp"

namespace nn::formats::csrc {

namespace {

std::vector<float> parameter_values(const CsrcPlan& plan, size_t variable) {
  const std::string& bytes = plan.nnb.variables[variable].data;
  std::vector<float> values(bytes.size() / sizeof(float));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

std::string right_aligned(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

std::string parameters_header(const CsrcPlan& plan) {
  const std::string guard = "H_" + upper(plan.symbol) + "_PARAMETERS_H__";
  std::ostringstream o;
  o << generated_banner() << "\n#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif /* __cplusplus */\n\n"
    << "extern void* " << plan.symbol << "_parameters[" << plan.parameters.size() << "];\n\n"
    << "#ifdef __cplusplus\n}\n#endif /* __cplusplus */\n\n#endif //" << guard << "\n";
  return o.str();
}

std::string parameters_source(const CsrcPlan& plan) {
  std::ostringstream o;
  o << generated_banner() << "\n#include \"" << plan.name << "_parameters.h\"\n\n";
  for (size_t n = 0; n < plan.parameters.size(); ++n) {
    const size_t v = plan.parameters[n];
    o << "\n// " << plan.network->variables[v].name << "\n";
    o << "float " << plan.symbol << "_parameter" << n << "[] = {\n";
    for (float x : parameter_values(plan, v)) o << "    " << right_aligned(python_float(double(x)), 20) << ",\n";
    o << "};\n";
  }
  o << "\nvoid* " << plan.symbol << "_parameters[] ={\n";
  for (size_t n = 0; n < plan.parameters.size(); ++n)
    o << "    (void*)" << plan.symbol << "_parameter" << n << ",\n";
  o << "};\n";
  return o.str();
}

std::string inference_header(const CsrcPlan& plan) {
  const std::string guard = "H_" + upper(plan.symbol) + "_INFERENCE_H__";
  const std::string& p = plan.prefix;
  const std::string P = upper(p);
  std::ostringstream o;
  o << generated_banner() << "\n#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif /* __cplusplus */\n\n"
    << "// All information for inference stores into context buffer.\n"
    << "// Detailed structure of context is unvisible from user.\n\n"
    << "/// Allocate memories and initialize buffers.\n"
    << "void* " << p << "_allocate_context(void** params);\n\n"
    << "/// Free all memories in the context\n"
    << "int " << p << "_free_context(void* context);\n\n";
  o << "/// Number of input buffers.\n#define " << P << "_NUM_OF_INPUT_BUFFERS (" << plan.nnb.inputs.size()
    << ")\n"
    << "/// Input buffer sizes.\n";
  for (size_t i = 0; i < plan.nnb.inputs.size(); ++i)
    o << "#define " << P << "_INPUT" << i << "_SIZE (" << element_count_of(plan, plan.nnb.inputs[i]) << ")\n";
  o << "/// Pointer of allocated buffer.\nfloat* " << p << "_input_buffer(void* context, int index);\n\n";
  o << "/// Number of output buffers.\n#define " << P << "_NUM_OF_OUTPUT_BUFFERS (" << plan.nnb.outputs.size()
    << ")\n/// Output buffer sizes.\n";
  for (size_t i = 0; i < plan.nnb.outputs.size(); ++i)
    o << "#define " << P << "_OUTPUT" << i << "_SIZE (" << element_count_of(plan, plan.nnb.outputs[i]) << ")\n";
  o << "/// Pointer of allocated buffer.\nfloat* " << p << "_output_buffer(void* context, int index);\n";
  if (!plan.parameters.empty()) {
    o << "/// Number of parameter buffers.\n#define " << P << "_NUM_OF_PARAM_BUFFERS (" << plan.parameters.size()
      << ")\n/// Parameter buffer sizes.\n";
    for (size_t n = 0; n < plan.parameters.size(); ++n)
      o << "#define " << P << "_PARAM" << n << "_SIZE (" << element_count_of(plan, plan.parameters[n]) << ")\n";
    o << "/// Pointer of allocated buffer.\nfloat* " << p << "_param_buffer(void* context, int index);\n\n";
  }
  o << "\n/// Exec inference\nint " << p << "_inference(void* context);\n\n"
    << "#ifdef __cplusplus\n}\n#endif /* __cplusplus */\n\n#endif //" << guard << "\n";
  return o.str();
}

std::string example_source(const CsrcPlan& plan) {
  const std::string& p = plan.prefix;
  const std::string P = upper(p);
  const size_t inputs = plan.nnb.inputs.size(), outputs = plan.nnb.outputs.size();
  std::ostringstream o;
  o << generated_banner()
    << "\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n#include <assert.h>\n\n"
    << "#include \"" << plan.name << "_inference.h\"\n";
  if (!plan.parameters.empty()) o << "#include \"" << plan.name << "_parameters.h\"\n";
  o << "\nint main(int argc, char* argv[])\n{\n"
    << "    if(argc != " << P << "_NUM_OF_INPUT_BUFFERS + 2) {\n"
    << "        printf(\"Please specify " << inputs << " input files and a output file prefix\\n\");\n"
    << "        return -1;\n    }\n\n"
    << "    // Allocate and initialize context\n"
    << "    void *context = " << p << "_allocate_context("
    << (plan.parameters.empty() ? std::string("0") : plan.symbol + "_parameters") << ");\n\n"
    << "    // Input files.\n";
  for (size_t n = 0; n < inputs; ++n) {
    o << "    FILE* input" << n << " = fopen(argv[" << n + 1 << "], \"rb\");\n"
      << "    assert(input" << n << ");\n"
      << "    int input_read_size" << n << " = fread(" << p << "_input_buffer(context, " << n
      << "), sizeof(float), " << P << "_INPUT" << n << "_SIZE, input" << n << ");\n"
      << "    assert(input_read_size" << n << " == " << P << "_INPUT" << n << "_SIZE);\n"
      << "    fclose(input" << n << ");\n\n";
  }
  o << "\n    // Exec inference\n    " << p << "_inference(context);\n\n    // Output file.\n";
  for (size_t n = 0; n < outputs; ++n) {
    o << "    char* output_filename" << n << " = malloc(strlen(argv[" << inputs + 1 << "]) + 10);\n"
      << "    sprintf(output_filename" << n << ", \"%s_" << n << ".bin\", argv[" << inputs + 1 << "]);\n"
      << "    FILE* output" << n << " = fopen(output_filename" << n << ", \"wb\");\n"
      << "    assert(output" << n << ");\n"
      << "    int output_write_size" << n << " = fwrite(" << p << "_output_buffer(context, " << n
      << "), sizeof(float), " << P << "_OUTPUT" << n << "_SIZE, output" << n << ");\n"
      << "    assert(output_write_size" << n << " == " << P << "_OUTPUT" << n << "_SIZE);\n"
      << "    fclose(output" << n << ");\n"
      << "    free(output_filename" << n << ");\n\n";
  }
  o << "\n    // free all context\n    " << p << "_free_context(context);\n    return 0;\n}\n";
  return o.str();
}

std::string gnumakefile(const CsrcPlan& plan) {
  std::string banner = generated_banner();
  for (size_t pos = 0; (pos = banner.find("//", pos)) != std::string::npos;) banner.replace(pos, 2, "#");
  std::ostringstream o;
  o << banner << "\nall: " << plan.name << "_example\n\n"
    << plan.name << "_example: " << plan.name << "_example.c " << plan.name << "_inference.c"
    << (plan.parameters.empty() ? "" : " " + plan.name + "_parameters.c") << "\n"
    << "\t$(CC) -Wall -Werror $(CFLAGS) $^ -o $@ $(LDFLAGS) -lnnablart_functions -lm\n";
  return o.str();
}

std::vector<CsrcFile> generate_csrc(const nn::ir::Model& model, int64_t batch_size) {
  const CsrcPlan plan = make_plan(model, batch_size);
  std::vector<CsrcFile> files;
  if (!plan.parameters.empty()) {
    files.push_back({plan.name + "_parameters.h", parameters_header(plan)});
    files.push_back({plan.name + "_parameters.c", parameters_source(plan)});
  }
  files.push_back({plan.name + "_inference.h", inference_header(plan)});
  files.push_back({plan.name + "_inference.c", inference_source(plan)});
  files.push_back({plan.name + "_example.c", example_source(plan)});
  files.push_back({"GNUmakefile", gnumakefile(plan)});
  return files;
}

void write_csrc(const nn::ir::Model& model, const std::string& dir, int64_t batch_size) {
  NN_CHECK(std::filesystem::is_directory(dir)) << "'" << dir << "': CSRC output must be an existing directory";
  namespace fs = std::filesystem;
  const std::vector<CsrcFile> files = generate_csrc(model, batch_size);
  // Every file is written into a staging folder inside dir first and renamed into place only when all
  // are written: a full disk leaves dir as it was, never a partial set of sources.
  std::string stage_name = (fs::path(dir) / ".csrc.tmp.XXXXXX").string();
  NN_CHECK(::mkdtemp(stage_name.data()) != nullptr)
      << "'" << dir << "': cannot create a staging folder: " << std::strerror(errno);
  const fs::path stage(stage_name);
  std::error_code ec;
  try {
    for (const CsrcFile& f : files) nn::formats::write_file_atomic((stage / f.name).string(), f.content);
    for (const CsrcFile& f : files) {
      fs::rename(stage / f.name, fs::path(dir) / f.name, ec);
      NN_CHECK(!ec) << "'" << (fs::path(dir) / f.name).string() << "': cannot replace it: " << ec.message();
    }
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
  fs::remove_all(stage, ec);
}

}  // namespace nn::formats::csrc

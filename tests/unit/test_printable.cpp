// nn::printable: what a model file names reaches the terminal with its control characters and bad bytes escaped.
#include <gtest/gtest.h>

#include "nn/core/printable.hpp"

namespace nn {
namespace {

TEST(Printable, EscapesTerminalControlSequences) {
  EXPECT_EQ(printable("Relu\x1b]0;TITLE\x07\x1b[31mRED"), "Relu\\x1b]0;TITLE\\x07\\x1b[31mRED");
  EXPECT_EQ(printable("a\rb\x7f"), "a\\x0db\\x7f");
  EXPECT_EQ(printable(std::string("nul\0end", 7)), "nul\\x00end");
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");  // C1 CSI, valid UTF-8 but a control
}

TEST(Printable, EscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(printable("conv\xff\xfe"), "conv\\xff\\xfe");
  EXPECT_EQ(printable("\xe3\x81"), "\\xe3\\x81");                    // truncated sequence
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(Printable, KeepsValidUtf8AndPlainText) {
  const std::string japanese = "\xe7\x95\xb3\xe3\x81\xbf\xe8\xbe\xbc\xe3\x81\xbf";  // "畳み込み" (NNC names)
  EXPECT_EQ(printable("'" + japanese + "' (Convolution)"), "'" + japanese + "' (Convolution)");
  EXPECT_EQ(printable("\xf0\x9f\x98\x80 \xc2\xa0"), "\xf0\x9f\x98\x80 \xc2\xa0");  // U+1F600, U+00A0
  EXPECT_EQ(printable("tab\there"), "tab\\x09here");
}

TEST(Printable, KeepsLinesOfMultiLineOutput) {
  EXPECT_EQ(printable("a\n\tb\x1b\n", true), "a\n\tb\\x1b\n");
  EXPECT_EQ(printable("a\nb"), "a\\x0ab");
}

}  // namespace
}  // namespace nn

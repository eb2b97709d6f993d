// Whether this process runs each network it builds once (`nncli infer`), where one-time setup does not pay.
#pragma once

namespace nn {

// Said by a command that runs its network once and exits (`nncli infer`): a convolution small enough that its
// plain path costs less than oneDNN's setup for it (conv_core.cpp) then keeps to the plain path. Off by default
// (training, profile, forward over a dataset and programs that embed libnn run networks many times).
void set_single_run(bool on);
bool single_run();

}  // namespace nn

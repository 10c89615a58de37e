// Compiled as part of the routing layer: a lower layer's header is visible (the control case).
#include "server/codec/response.hpp"

// Compiled as part of the codec layer: a higher layer's header must not be found.
#include "server/routing/router.hpp"

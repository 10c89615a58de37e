// Compiled as part of the store surface: another surface's header must not be found.
#include "server/api/petstore/pet_services.hpp"

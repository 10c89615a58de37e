#pragma once
// A decoded request body as core's rules read it, whatever its media type: JSON members keep their type,
// form fields are `text` (a string that may also be read as a number), a repeated form field is an array.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::core {

struct input_value {
    enum class kind { string, number, boolean, null, array, object, text };
    kind type = kind::null;
    std::string text;                // string and text: the value; number and boolean: the JSON literal
    std::vector<input_value> items;  // array: the elements (nested arrays and objects keep only their kind)
};

using input_fields = std::map<std::string, input_value, std::less<>>;

}  // namespace storefront::core

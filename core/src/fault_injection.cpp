// Validation of the fault injection parameters (_delay, _status, _fail_rate) into a plan.
// Uses the shared bounded parsers so their messages read like every other query parameter's.

#include "core/fault_injection.hpp"

#include <string>
#include <utility>
#include <vector>

namespace storefront::core {

namespace {

// `name` as a decimal in [0, 1], or nullopt with a message (absent: nullopt, no message).
std::optional<double> rate_param(
    const query_params& params, std::string_view name, std::vector<std::string>& messages
) {
    const std::optional<std::string_view> given = one_value(params, name, messages);
    if (!given) {
        return std::nullopt;
    }
    const std::string prefix{name};
    const std::optional<double> value = parse_decimal(*given);
    if (!value) {
        messages.push_back(prefix + " must be a number conforming to the specified constraints");
        return std::nullopt;
    }
    if (*value < 0) {
        messages.push_back(prefix + " must not be less than 0");
        return std::nullopt;
    }
    if (*value > 1) {
        messages.push_back(prefix + " must not be greater than 1");
        return std::nullopt;
    }
    return *value == 0 ? 0.0 : *value;  // "-0" is 0
}

}  // namespace

validated<fault_plan> parse_fault_plan(const query_params& params) {
    std::vector<std::string> messages;
    const auto delay = bounded_integer_param(params, "_delay", 0, max_fault_delay_ms, messages);
    const auto status =
        bounded_integer_param(params, "_status", min_fault_status, max_fault_status, messages);
    const auto rate = rate_param(params, "_fail_rate", messages);
    if (!messages.empty()) {
        return validation_errors{std::move(messages)};
    }
    fault_plan plan;
    if (delay) {
        plan.delay = std::chrono::milliseconds(*delay);
    }
    if (status) {
        plan.status = static_cast<int>(*status);
    }
    plan.fail_rate = rate;
    return plan;
}

}  // namespace storefront::core

#pragma once
// One error value for every surface (issue 41). The design, the smallest that keeps every answer's bytes:
// - A failure travels as an api_error: its status, the plain message every surface shows, and, for the few
//   /api/v1 answers whose body is not {"message","error","statusCode"} (the public service's literal 401s
//   and 500, a 400 listing its problems as an array, the compat EntityNotFoundError), that body.
// - A handler, admission or decoder answers with a response holding the api_error and no body (http_error,
//   routing/error_responses.hpp). Its extra headers (Retry-After, Allow, WWW-Authenticate) are the
//   response's own. The body is written once, for the surface of the request, at the edge: routing's
//   finishing stage (request_finish.hpp: finish_answer -> render_error), or transport, which knows the
//   surface of what it refuses (styled_error). Nothing parses or rewrites a body once written.
// - A domain refusal (errc and the text naming what went wrong) is written once per aggregate
//   (api/store/*_actions.hpp); REST answers it with error_response, GraphQL makes it a field error
//   (api/graphql/graph_values.hpp), since GraphQL's errors are not HTTP answers.

#include <string>

#include <boost/beast/http/status.hpp>

namespace storefront::server {

struct api_error {
    boost::beast::http::status status = boost::beast::http::status::internal_server_error;
    std::string message;     // plain text; a validation's problems joined with "; "
    std::string store_body;  // the /api/v1 body when it is not the usual shape; empty: the usual shape
};

}  // namespace storefront::server

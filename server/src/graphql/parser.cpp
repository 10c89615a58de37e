// Recursive-descent parser for executable documents and the type-system subset the schema needs.
// Recursion is bounded by max_nesting, so hostile nesting is a syntax error, never a stack overflow.

#include "graphql/parser.hpp"

#include "graphql/lexer.hpp"

namespace storefront::graphql {
namespace {

class parser final {
  public:
    parser(std::string_view source, std::size_t max_tokens) : tokens_(tokenize(source, max_tokens)) {}

    document executable() {
        document doc;
        do {
            const token& t = peek();
            if (t.kind == token_kind::brace_l) {
                operation_definition op;
                op.where = t.where;
                op.selections = selection_set(0);
                doc.operations.push_back(std::move(op));
            } else if (t.kind == token_kind::name && (t.value == "query" || t.value == "mutation" || t.value == "subscription")) {
                doc.operations.push_back(operation());
            } else if (t.kind == token_kind::name && t.value == "fragment") {
                doc.fragments.push_back(fragment());
            } else if (is_type_system_start()) {
                const location where = peek().where;
                auto defined = type_definition();
                doc.others.push_back({defined.name, where});
            } else {
                unexpected(t);
            }
        } while (peek().kind != token_kind::eof);
        return doc;
    }

    std::vector<sdl_type> sdl() {
        std::vector<sdl_type> types;
        do {
            if (!is_type_system_start()) {
                unexpected(peek());
            }
            types.push_back(type_definition());
        } while (peek().kind != token_kind::eof);
        return types;
    }

  private:
    const token& peek() const { return tokens_[pos_]; }
    const token& take() {
        const token& t = tokens_[pos_];
        if (t.kind != token_kind::eof) {
            ++pos_;
        }
        return t;
    }
    bool skip(token_kind kind) {
        if (peek().kind == kind) {
            take();
            return true;
        }
        return false;
    }
    bool skip_keyword(std::string_view word) {
        if (peek().kind == token_kind::name && peek().value == word) {
            take();
            return true;
        }
        return false;
    }
    [[noreturn]] static void unexpected(const token& t) {
        throw syntax_error("Syntax Error: Unexpected " + describe(t) + ".", t.where);
    }
    const token& expect(token_kind kind) {
        if (peek().kind != kind) {
            throw syntax_error(
                "Syntax Error: Expected " + describe(kind) + ", found " + describe(peek()) + ".", peek().where
            );
        }
        return take();
    }
    void expect_keyword(std::string_view word) {
        if (!skip_keyword(word)) {
            throw syntax_error(
                "Syntax Error: Expected \"" + std::string(word) + "\", found " + describe(peek()) + ".",
                peek().where
            );
        }
    }
    std::string name() { return expect(token_kind::name).value; }
    void check_depth(std::size_t depth, std::size_t bound) const {
        if (depth > bound) {
            throw syntax_error(
                "Syntax Error: Nesting deeper than " + std::to_string(bound) + " levels.", peek().where
            );
        }
    }

    operation_definition operation() {
        operation_definition op;
        op.where = peek().where;
        const std::string keyword = take().value;
        op.kind = keyword == "query"      ? operation_kind::query
                  : keyword == "mutation" ? operation_kind::mutation
                                          : operation_kind::subscription;
        if (peek().kind == token_kind::name) {
            op.name = take().value;
        }
        if (skip(token_kind::paren_l)) {
            do {
                op.variables.push_back(variable_definition_());
            } while (!skip(token_kind::paren_r));
        }
        op.directives = directives(true);
        op.selections = selection_set(0);
        return op;
    }

    variable_definition variable_definition_() {
        variable_definition v;
        v.where = peek().where;
        expect(token_kind::dollar);
        v.name = name();
        typed_default_directives(v);
        return v;
    }

    // The rest of a variable definition or an input value after its name: ": Type", "= default"
    // (optional) and the directives.
    void typed_default_directives(input_value_definition& v) {
        expect(token_kind::colon);
        v.type = type(0);
        if (skip(token_kind::equals)) {
            v.default_value = value_(true, 0);
        }
        v.directives = directives(true);
    }

    type_ref type(std::size_t depth) {
        check_depth(depth, max_nesting);
        type_ref t;
        t.where = peek().where;
        if (skip(token_kind::bracket_l)) {
            t = type_ref::list_of(type(depth + 1));
            t.where = t.of->where;
            expect(token_kind::bracket_r);
        } else {
            t.name = name();
        }
        if (skip(token_kind::bang)) {
            const location where = t.where;
            t = type_ref::non_null_of(std::move(t));
            t.where = where;
        }
        return t;
    }

    fragment_definition fragment() {
        fragment_definition f;
        f.where = take().where;
        if (peek().kind == token_kind::name && peek().value == "on") {
            throw syntax_error("Syntax Error: Unexpected Name \"on\".", peek().where);
        }
        f.name = name();
        expect_keyword("on");
        f.type_condition = name();
        f.directives = directives(false);
        f.selections = selection_set(0);
        return f;
    }

    std::vector<selection> selection_set(std::size_t depth) {
        check_depth(depth, 2 * max_nesting);
        expect(token_kind::brace_l);
        std::vector<selection> out;
        do {
            out.push_back(selection_(depth));
        } while (!skip(token_kind::brace_r));
        return out;
    }

    selection selection_(std::size_t depth) {
        selection s;
        s.where = peek().where;
        if (skip(token_kind::spread)) {
            if (peek().kind == token_kind::name && peek().value != "on") {
                s.what = selection::kind::fragment_spread;
                s.name = take().value;
                s.directives = directives(false);
                return s;
            }
            s.what = selection::kind::inline_fragment;
            if (skip_keyword("on")) {
                s.type_condition = name();
            }
            s.directives = directives(false);
            s.selections = selection_set(depth + 1);
            return s;
        }
        s.name = name();
        if (skip(token_kind::colon)) {
            s.alias = std::move(s.name);
            s.name = name();
        }
        s.arguments = arguments(false);
        s.directives = directives(false);
        if (peek().kind == token_kind::brace_l) {
            s.selections = selection_set(depth + 1);
        }
        return s;
    }

    std::vector<argument> arguments(bool is_const) {
        std::vector<argument> out;
        if (skip(token_kind::paren_l)) {
            do {
                argument a;
                a.where = peek().where;
                a.name = name();
                expect(token_kind::colon);
                a.val = value_(is_const, 0);
                out.push_back(std::move(a));
            } while (!skip(token_kind::paren_r));
        }
        return out;
    }

    std::vector<directive> directives(bool is_const) {
        std::vector<directive> out;
        while (peek().kind == token_kind::at) {
            directive d;
            d.where = take().where;
            d.name = name();
            d.arguments = arguments(is_const);
            out.push_back(std::move(d));
        }
        return out;
    }

    value value_(bool is_const, std::size_t depth) {
        check_depth(depth, max_nesting);
        value v;
        const token& t = peek();
        v.where = t.where;
        switch (t.kind) {
            case token_kind::bracket_l:
                take();
                v.what = value::kind::list;
                while (!skip(token_kind::bracket_r)) {
                    v.items.push_back(value_(is_const, depth + 1));
                }
                return v;
            case token_kind::brace_l:
                take();
                v.what = value::kind::object;
                while (!skip(token_kind::brace_r)) {
                    object_field f;
                    f.where = peek().where;
                    f.name = name();
                    expect(token_kind::colon);
                    f.val = value_(is_const, depth + 1);
                    v.fields.push_back(std::move(f));
                }
                return v;
            case token_kind::int_value:
                v.what = value::kind::int_number;
                break;
            case token_kind::float_value:
                v.what = value::kind::float_number;
                break;
            case token_kind::string_value:
            case token_kind::block_string:
                v.what = value::kind::string;
                break;
            case token_kind::name:
                if (t.value == "true" || t.value == "false") {
                    v.what = value::kind::boolean;
                    v.flag = t.value == "true";
                } else if (t.value == "null") {
                    v.what = value::kind::null;
                } else {
                    v.what = value::kind::enum_value;
                }
                break;
            case token_kind::dollar:
                if (!is_const) {
                    take();
                    v.what = value::kind::variable;
                    v.text = name();
                    return v;
                }
                [[fallthrough]];
            default:
                unexpected(t);
        }
        v.text = take().value;
        return v;
    }

    // --- type system
    bool is_type_system_start() const {
        std::size_t at = pos_;
        if (tokens_[at].kind == token_kind::string_value || tokens_[at].kind == token_kind::block_string) {
            ++at;
        }
        const token& t = tokens_[at];
        return t.kind == token_kind::name &&
               (t.value == "scalar" || t.value == "type" || t.value == "interface" || t.value == "union" ||
                t.value == "enum" || t.value == "input");
    }
    void skip_description() {
        if (peek().kind == token_kind::string_value || peek().kind == token_kind::block_string) {
            take();
        }
    }

    sdl_type type_definition() {
        skip_description();
        sdl_type t;
        t.where = peek().where;
        const std::string keyword = name();
        t.name = name();
        if (keyword == "scalar") {
            t.what = sdl_type::kind::scalar;
            t.directives = directives(true);
        } else if (keyword == "type" || keyword == "interface") {
            t.what = keyword == "type" ? sdl_type::kind::object : sdl_type::kind::interface;
            if (skip_keyword("implements")) {
                skip(token_kind::amp);
                do {
                    t.interfaces.push_back(name());
                } while (skip(token_kind::amp));
            }
            t.directives = directives(true);
            if (skip(token_kind::brace_l)) {
                do {
                    t.fields.push_back(field_definition());
                } while (!skip(token_kind::brace_r));
            }
        } else if (keyword == "union") {
            t.what = sdl_type::kind::union_type;
            t.directives = directives(true);
            if (skip(token_kind::equals)) {
                skip(token_kind::pipe);
                do {
                    t.members.push_back(name());
                } while (skip(token_kind::pipe));
            }
        } else if (keyword == "enum") {
            t.what = sdl_type::kind::enum_type;
            t.directives = directives(true);
            if (skip(token_kind::brace_l)) {
                do {
                    auto v = described_name<sdl_field>();
                    v.directives = directives(true);
                    t.fields.push_back(std::move(v));
                } while (!skip(token_kind::brace_r));
            }
        } else {
            t.what = sdl_type::kind::input_object;
            t.directives = directives(true);
            if (skip(token_kind::brace_l)) {
                do {
                    t.input_fields.push_back(input_value());
                } while (!skip(token_kind::brace_r));
            }
        }
        return t;
    }

    // A definition's start: its description (skipped), where it stands and its name.
    template <class Definition>
    Definition described_name() {
        skip_description();
        Definition d;
        d.where = peek().where;
        d.name = name();
        return d;
    }

    sdl_field field_definition() {
        auto f = described_name<sdl_field>();
        if (skip(token_kind::paren_l)) {
            do {
                f.arguments.push_back(input_value());
            } while (!skip(token_kind::paren_r));
        }
        expect(token_kind::colon);
        f.type = type(0);
        f.directives = directives(true);
        return f;
    }

    sdl_input_value input_value() {
        auto v = described_name<sdl_input_value>();
        typed_default_directives(v);
        return v;
    }

    std::vector<token> tokens_;
    std::size_t pos_ = 0;
};

}  // namespace

document parse_document(std::string_view source, std::size_t max_tokens) {
    return parser(source, max_tokens).executable();
}

std::vector<sdl_type> parse_sdl(std::string_view source) {
    return parser(source, static_cast<std::size_t>(-1) / 2).sdl();
}

}  // namespace storefront::graphql

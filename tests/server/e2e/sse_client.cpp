// sse_client: a blocking socket with poll() deadlines and a parser of event-stream blocks.

#include "sse_client.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <poll.h>
#include <stdexcept>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace storefront::test {

sse_client::sse_client(
    std::uint16_t port,
    const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers,
    int receive_buffer
) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) {
        throw std::runtime_error("socket failed");
    }
    if (receive_buffer > 0) {  // before connect, so the advertised window is small from the start
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd_);
        throw std::runtime_error("connect failed");
    }
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n";
    for (const auto& [name, value] : headers) {
        request += name + ": " + value + "\r\n";
    }
    request += "\r\n";
    std::size_t sent = 0;
    while (sent < request.size()) {
        const auto n = ::send(fd_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) {
            throw std::runtime_error("send failed");
        }
        sent += static_cast<std::size_t>(n);
    }
}

sse_client::~sse_client() {
    close();
}

void sse_client::close() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

bool sse_client::read_more(std::chrono::steady_clock::time_point deadline) {
    if (closed_ || fd_ < 0) {
        return false;
    }
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()
        );
        if (left.count() <= 0) {
            return false;
        }
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready <= 0) {
            return false;
        }
        char chunk[16384];
        const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) {
            closed_ = true;
            return false;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
}

void sse_client::read_head(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::size_t end = std::string::npos;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!read_more(deadline)) {
            throw std::runtime_error("no response head; got: " + buffer_);
        }
    }
    head = buffer_.substr(0, end + 2);
    buffer_.erase(0, end + 4);
    status = static_cast<unsigned>(std::stoi(head.substr(9, 3)));
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
}

bool sse_client::read_head_until_following(std::chrono::milliseconds wait) {
    read_head(wait);
    if (status != 200) {
        return false;
    }
    const auto hint = next_block(wait);
    return hint.has_value() && !hint->retry.empty();
}

std::string sse_client::rest(std::chrono::milliseconds wait) {
    return drain(wait);
}

std::optional<sse_block> sse_client::next_block(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::size_t end = std::string::npos;
    while ((end = buffer_.find("\n\n")) == std::string::npos) {
        if (!read_more(deadline)) {
            return std::nullopt;
        }
    }
    const std::string text = buffer_.substr(0, end + 1);
    buffer_.erase(0, end + 2);
    sse_block block;
    std::size_t at = 0;
    while (at < text.size()) {
        const auto eol = text.find('\n', at);
        const std::string line = text.substr(at, eol - at);
        at = eol + 1;
        if (line.starts_with(":")) {
            block.comments.push_back(line.substr(1));
            continue;
        }
        const auto colon = line.find(':');
        const std::string field = line.substr(0, colon);
        std::string value = colon == std::string::npos ? std::string() : line.substr(colon + 1);
        if (value.starts_with(" ")) {
            value.erase(0, 1);
        }
        if (field == "id") {
            block.id = value;
        } else if (field == "event") {
            block.event = value;
        } else if (field == "data") {
            block.data += block.data.empty() ? value : "\n" + value;
        } else if (field == "retry") {
            block.retry = value;
        }
    }
    return block;
}

std::optional<sse_block> sse_client::next_event(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()
        );
        if (left.count() <= 0) {
            return std::nullopt;
        }
        auto block = next_block(left);
        if (!block) {
            return std::nullopt;
        }
        if (!block->event.empty() || !block->data.empty()) {
            return block;
        }
    }
}

bool sse_client::closed_within(std::chrono::milliseconds wait, std::string* dropped) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!closed_ && std::chrono::steady_clock::now() < deadline) {
        (void)read_more(deadline);
    }
    if (dropped != nullptr) {
        *dropped = buffer_;
    }
    buffer_.clear();
    return closed_;
}

std::string sse_client::drain(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!closed_ && std::chrono::steady_clock::now() < deadline) {
        (void)read_more(deadline);
    }
    std::string out;
    out.swap(buffer_);
    return out;
}

}  // namespace storefront::test

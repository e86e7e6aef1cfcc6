// Status and StatusOr<T>: how every library reports the caller's mistakes (bad config, bad model,
// corrupt binary) without exceptions. Our own bugs abort instead (NPU_CHECK). Hand-rolled because
// gcc 12 has no std::expected and Debian's Abseil uses its own string_view.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace npu {

enum class ErrorKind {
  kOk,
  kInvalidArgument,     // the input is malformed or out of range
  kNotFound,            // a named file, model, field or tensor does not exist
  kFailedPrecondition,  // valid input that does not fit this use (other architecture, version)
  kResourceExhausted,   // does not fit: SRAM, DRAM, an encoding field
  kDataLoss,            // corrupt data: checksum, truncated file
  kUnimplemented,       // a valid request this version does not support
  kInternal,            // the hardware reported a failure
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return kind_ == ErrorKind::kOk; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // "context: message", for adding where an error happened as it travels up.
  Status WithContext(const std::string& context) const {
    return ok() ? *this : Status(kind_, context + ": " + message_);
  }

 private:
  ErrorKind kind_ = ErrorKind::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) { return {ErrorKind::kInvalidArgument, std::move(m)}; }
inline Status NotFound(std::string m) { return {ErrorKind::kNotFound, std::move(m)}; }
inline Status FailedPrecondition(std::string m) {
  return {ErrorKind::kFailedPrecondition, std::move(m)};
}
inline Status ResourceExhausted(std::string m) {
  return {ErrorKind::kResourceExhausted, std::move(m)};
}
inline Status DataLoss(std::string m) { return {ErrorKind::kDataLoss, std::move(m)}; }
inline Status Unimplemented(std::string m) { return {ErrorKind::kUnimplemented, std::move(m)}; }
inline Status Internal(std::string m) { return {ErrorKind::kInternal, std::move(m)}; }

template <class T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  StatusOr(Status status) : v_(std::move(status)) {  // NOLINT
    if (std::get<Status>(v_).ok()) std::abort();     // an ok Status carries no value
  }
  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace npu

#define NPU_CONCAT_INNER(a, b) a##b
#define NPU_CONCAT(a, b) NPU_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function if it is an error.
#define NPU_TRY(expr)                                  \
  do {                                                 \
    ::npu::Status npu_try_status_ = (expr);            \
    if (!npu_try_status_.ok()) return npu_try_status_; \
  } while (0)

// `lhs = value of expr` if it is ok, else returns its Status from the enclosing function.
#define NPU_ASSIGN_OR_RETURN(lhs, expr) \
  NPU_ASSIGN_OR_RETURN_IMPL(NPU_CONCAT(npu_statusor_, __LINE__), lhs, expr)
#define NPU_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

// Invariants of our own code: a failure is a bug, so it aborts with where and why.
#define NPU_CHECK(cond)                                                                     \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: internal error: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                                  \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

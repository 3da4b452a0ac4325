// A non-owning view of a string, accepted wherever Poplar takes a name or handle.
#ifndef poplar_StringRef_hpp
#define poplar_StringRef_hpp

#include <cstddef>
#include <cstring>
#include <ostream>
#include <string>

namespace poplar {

class StringRef {
public:
  StringRef() : data_(""), size_(0) {}
  StringRef(const char *s) : data_(s ? s : ""), size_(s ? std::strlen(s) : 0) {}
  StringRef(const char *s, std::size_t n) : data_(s), size_(n) {}
  StringRef(const std::string &s) : data_(s.data()), size_(s.size()) {}

  const char *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char *begin() const { return data_; }
  const char *end() const { return data_ + size_; }
  std::string str() const { return std::string(data_, size_); }
  operator std::string() const { return str(); }
  char operator[](std::size_t i) const { return data_[i]; }

  friend bool operator==(StringRef a, StringRef b) {
    return a.size_ == b.size_ && std::memcmp(a.data_, b.data_, a.size_) == 0;
  }
  friend bool operator!=(StringRef a, StringRef b) { return !(a == b); }
  friend bool operator<(StringRef a, StringRef b) { return a.str() < b.str(); }
  friend std::ostream &operator<<(std::ostream &os, StringRef s) {
    return os.write(s.data_, static_cast<std::streamsize>(s.size_));
  }

private:
  const char *data_;
  std::size_t size_;
};

} // namespace poplar

#endif

#include "cg/matrix_market.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include <unistd.h>

#include "mdremap/error.hpp"

namespace mdremap::cg {

namespace {

constexpr std::int64_t kMaxDim = std::numeric_limits<std::int32_t>::max();

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t b = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// A token shown in a message: clipped, non-printable bytes escaped.
std::string shown(std::string_view t) {
  std::string s;
  for (std::size_t i = 0; i < t.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (c >= 32 && c < 127)
      s += static_cast<char>(c);
    else
      s += fmt::format("\\x{:02x}", c);
  }
  if (t.size() > 40) s += "...";
  return s;
}

// Reads lines and counts them; the error helper names the current one.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  bool next(std::string& s) {
    if (!std::getline(in_, s)) return false;
    ++line_;
    return true;
  }
  int line() const { return line_; }
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(const std::string& problem, int at = -1) const {
    throw InputError(name_, at < 0 ? std::max(line_, 1) : at, problem);
  }

 private:
  std::istream& in_;
  std::string name_;
  int line_ = 0;
};

std::int64_t parse_int(const LineReader& r, std::string_view t, const char* what) {
  std::int64_t v = 0;
  const char* b = t.data();
  if (!t.empty() && *b == '+') ++b;
  const auto [p, ec] = std::from_chars(b, t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range)
    r.fail(fmt::format("{} '{}' is out of range", what, shown(t)));
  if (ec != std::errc() || p != t.data() + t.size())
    r.fail(fmt::format("{} '{}' is not an integer", what, shown(t)));
  return v;
}

double parse_value(const LineReader& r, std::string_view t, bool integer) {
  if (integer) return static_cast<double>(parse_int(r, t, "value"));
  double v = 0;
  const char* b = t.data();
  if (!t.empty() && *b == '+') ++b;
  const auto [p, ec] = std::from_chars(b, t.data() + t.size(), v, std::chars_format::general);
  if (ec == std::errc::result_out_of_range)
    r.fail(fmt::format("value '{}' is out of the range of a double", shown(t)));
  if (ec != std::errc() || p != t.data() + t.size())
    r.fail(fmt::format("value '{}' is not a number", shown(t)));
  if (!std::isfinite(v)) r.fail(fmt::format("value '{}' is not finite", shown(t)));
  return v;
}

// Skips comment and blank lines; false at end of input.
bool next_data_line(LineReader& r, std::string& s) {
  while (r.next(s)) {
    const auto t = split(s);
    if (t.empty() || t[0][0] == '%') continue;
    return true;
  }
  return false;
}

void read_header(LineReader& r, MatrixMarket& m) {
  std::string s;
  if (!r.next(s)) r.fail("empty file: expected a '%%MatrixMarket matrix ...' header", 1);
  const auto t = split(s);
  if (t.empty() || lower(std::string(t[0])) != "%%matrixmarket")
    r.fail("not a Matrix Market file: the first line must start with '%%MatrixMarket'");
  if (t.size() != 5)
    r.fail(
        fmt::format("header has {} fields, expected '%%MatrixMarket matrix FORMAT FIELD "
                    "SYMMETRY'",
                    t.size()));
  const std::string object = lower(std::string(t[1]));
  if (object != "matrix")
    r.fail(fmt::format("unknown object '{}' (expected 'matrix')", shown(t[1])));
  m.format = lower(std::string(t[2]));
  if (m.format != "coordinate" && m.format != "array")
    r.fail(fmt::format("unknown format '{}' (expected 'coordinate' or 'array')", shown(t[2])));
  m.field = lower(std::string(t[3]));
  if (m.field == "complex") r.fail("complex values are not supported (real, integer or pattern)");
  if (m.field != "real" && m.field != "integer" && m.field != "pattern")
    r.fail(fmt::format("unknown field '{}' (expected real, integer or pattern)", shown(t[3])));
  if (m.field == "pattern" && m.format == "array")
    r.fail("'pattern' is only valid with 'coordinate'");
  m.symmetry = lower(std::string(t[4]));
  if (m.symmetry == "skew-symmetric" || m.symmetry == "hermitian")
    r.fail(fmt::format("'{}' matrices are not supported (general or symmetric)", m.symmetry));
  if (m.symmetry != "general" && m.symmetry != "symmetric")
    r.fail(fmt::format("unknown symmetry '{}' (expected general or symmetric)", shown(t[4])));
}

void read_size(LineReader& r, MatrixMarket& m) {
  std::string s;
  const bool coord = m.format == "coordinate";
  if (!next_data_line(r, s))
    r.fail(coord ? "missing size line 'rows columns entries'" : "missing size line 'rows columns'");
  m.size_line = r.line();
  const auto t = split(s);
  const std::size_t want = coord ? 3 : 2;
  if (t.size() != want)
    r.fail(fmt::format("size line has {} fields, expected {}", t.size(),
                       coord ? "'rows columns entries'" : "'rows columns'"));
  m.rows = parse_int(r, t[0], "row count");
  m.cols = parse_int(r, t[1], "column count");
  if (m.rows < 0 || m.cols < 0) r.fail("negative matrix dimension");
  if (m.rows > kMaxDim || m.cols > kMaxDim)
    r.fail(fmt::format("matrix is {} x {}: at most {} rows and columns are supported", m.rows,
                       m.cols, kMaxDim));
  if (m.symmetric() && m.rows != m.cols)
    r.fail(fmt::format("a symmetric matrix must be square, this one is {} x {}", m.rows, m.cols));
  if (coord) {
    m.declared = parse_int(r, t[2], "entry count");
    if (m.declared < 0) r.fail("negative entry count");
    // Symmetric files store at most the lower triangle.
    const double room = m.symmetric() ? 0.5 * static_cast<double>(m.rows) * (m.rows + 1)
                                      : static_cast<double>(m.rows) * static_cast<double>(m.cols);
    if (static_cast<double>(m.declared) > room)
      r.fail(fmt::format("{} entries do not fit in a {} x {}{} matrix", m.declared, m.rows, m.cols,
                         m.symmetric() ? " symmetric (lower triangle)" : ""));
  } else {
    m.declared = m.symmetric() ? m.rows * (m.rows + 1) / 2 : m.rows * m.cols;
  }
}

void read_coordinate(LineReader& r, MatrixMarket& m) {
  const bool pattern = m.field == "pattern";
  const bool integer = m.field == "integer";
  const std::size_t want = pattern ? 2 : 3;
  const auto cap = static_cast<std::size_t>(std::min<std::int64_t>(m.declared, 1 << 20));
  m.row.reserve(cap);
  m.col.reserve(cap);
  m.val.reserve(cap);
  m.line.reserve(cap);
  std::string s;
  std::int64_t count = 0;
  while (next_data_line(r, s)) {
    const auto t = split(s);
    if (count == m.declared)
      r.fail(fmt::format("more entries than the {} declared on line {}", m.declared, m.size_line));
    if (t.size() != want)
      r.fail(fmt::format("entry has {} fields, expected {}", t.size(),
                         pattern ? "'row column'" : "'row column value'"));
    const std::int64_t i = parse_int(r, t[0], "row index");
    const std::int64_t j = parse_int(r, t[1], "column index");
    if (i < 1 || i > m.rows) r.fail(fmt::format("row index {} is out of range 1..{}", i, m.rows));
    if (j < 1 || j > m.cols)
      r.fail(fmt::format("column index {} is out of range 1..{}", j, m.cols));
    if (m.symmetric() && j > i)
      r.fail(
          fmt::format("entry ({}, {}) is above the diagonal: a symmetric file stores only the "
                      "lower triangle",
                      i, j));
    m.row.push_back(static_cast<std::int32_t>(i - 1));
    m.col.push_back(static_cast<std::int32_t>(j - 1));
    m.val.push_back(pattern ? 1.0 : parse_value(r, t[2], integer));
    m.line.push_back(r.line());
    ++count;
  }
  if (count != m.declared)
    r.fail(fmt::format("file ends after {} of the {} entries declared on line {}", count,
                       m.declared, m.size_line));
}

void read_array(LineReader& r, MatrixMarket& m) {
  const bool integer = m.field == "integer";
  std::vector<double> stored;
  stored.reserve(static_cast<std::size_t>(std::min<std::int64_t>(m.declared, 1 << 20)));
  std::string s;
  while (next_data_line(r, s)) {
    const auto t = split(s);
    if (static_cast<std::int64_t>(stored.size()) == m.declared)
      r.fail(fmt::format("more values than the {} the size line (line {}) implies", m.declared,
                         m.size_line));
    if (t.size() != 1)
      r.fail(fmt::format("array entry has {} fields, expected one value", t.size()));
    stored.push_back(parse_value(r, t[0], integer));
  }
  if (static_cast<std::int64_t>(stored.size()) != m.declared)
    r.fail(fmt::format("file ends after {} of the {} values the size line (line {}) implies",
                       stored.size(), m.declared, m.size_line));
  if (!m.symmetric()) {
    m.dense = std::move(stored);
    return;
  }
  // Column-major lower triangle -> full column-major matrix.
  const std::int64_t n = m.rows;
  m.dense.assign(static_cast<std::size_t>(n * n), 0.0);
  std::size_t k = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {
      m.dense[j * n + i] = stored[k];
      m.dense[i * n + j] = stored[k];
      ++k;
    }
}

std::string fmt_double(double v) {
  return fmt::format("{}", v);
}

}  // namespace

MatrixMarket read_matrix_market(std::istream& in, const std::string& name) {
  LineReader r(in, name);
  MatrixMarket m;
  m.name = name;
  read_header(r, m);
  read_size(r, m);
  if (m.format == "coordinate")
    read_coordinate(r, m);
  else
    read_array(r, m);
  if (in.bad()) r.fail("read error");
  return m;
}

MatrixMarket read_matrix_market_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, 0, "is a directory, not a Matrix Market file");
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open (missing file or no permission)");
  return read_matrix_market(in, path);
}

HostCsr to_csr(const MatrixMarket& m) {
  if (m.format != "coordinate")
    throw InputError(m.name, 1, "expected a 'coordinate' matrix, this file is 'array'");
  if (!m.symmetric()) return coo_to_csr(m.rows, m.cols, m.row, m.col, m.val);
  std::vector<std::int32_t> r = m.row, c = m.col;
  std::vector<double> v = m.val;
  for (std::size_t k = 0; k < m.row.size(); ++k) {
    if (m.row[k] == m.col[k]) continue;
    r.push_back(m.col[k]);
    c.push_back(m.row[k]);
    v.push_back(m.val[k]);
  }
  return coo_to_csr(m.rows, m.cols, r, c, v);
}

HostCsr cg_matrix(const MatrixMarket& m) {
  if (m.format != "coordinate")
    throw InputError(m.name, 1, "CG needs a sparse 'coordinate' matrix, this file is 'array'");
  if (m.rows != m.cols)
    throw InputError(m.name, m.size_line,
                     fmt::format("matrix is {} x {}: CG needs a square matrix", m.rows, m.cols));
  if (m.rows == 0) throw InputError(m.name, m.size_line, "matrix has no rows");
  // Sizes the file declares are checked against the entries it holds, and against memory,
  // before anything of the declared size is allocated: an SPD matrix has every diagonal entry.
  std::vector<std::int32_t> diagonal;
  for (std::size_t k = 0; k < m.row.size(); ++k)
    if (m.row[k] == m.col[k]) diagonal.push_back(m.row[k]);
  std::sort(diagonal.begin(), diagonal.end());
  diagonal.erase(std::unique(diagonal.begin(), diagonal.end()), diagonal.end());
  if (static_cast<std::int64_t>(diagonal.size()) < m.rows) {
    std::int64_t missing = 0;
    while (missing < static_cast<std::int64_t>(diagonal.size()) && diagonal[missing] == missing)
      ++missing;
    throw InputError(m.name, m.size_line,
                     fmt::format("row {} has no diagonal entry: the matrix declares {} rows but "
                                 "holds {} diagonal entries ({} entries in all); CG needs an SPD "
                                 "matrix",
                                 missing + 1, m.rows, diagonal.size(), m.row.size()));
  }
  const double stored = m.symmetric() ? 2.0 * static_cast<double>(m.row.size()) : m.row.size();
  // CSR (row pointers, columns, values) and the solver's vectors (about eight of n doubles).
  const double need = 8.0 * (m.rows + 1) + 12.0 * stored + 64.0 * m.rows;
  const double host = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                      static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  if (host > 0 && need > host)
    throw InputError(m.name, m.size_line,
                     fmt::format("the matrix needs at least {:.3g} GB of host memory; this machine "
                                 "has {:.3g} GB",
                                 need / 1e9, host / 1e9));
  HostCsr a = to_csr(m);
  auto line_of = [&](std::int64_t r, std::int64_t c) -> int {
    for (std::size_t k = 0; k < m.row.size(); ++k)
      if ((m.row[k] == r && m.col[k] == c) || (m.symmetric() && m.row[k] == c && m.col[k] == r))
        return static_cast<int>(m.line[k]);
    return m.size_line;
  };
  if (!m.symmetric()) {
    const Asymmetry as = find_asymmetry(a, 1e-12);
    if (as.found)
      throw InputError(
          m.name, line_of(as.row, as.col),
          fmt::format("matrix is not symmetric: A({},{}) = {} but A({},{}) = {} (CG "
                      "needs a symmetric matrix)",
                      as.row + 1, as.col + 1, as.value, as.col + 1, as.row + 1, as.mirror));
  }
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::int64_t b = a.rowptr[r], e = a.rowptr[r + 1];
    const auto it = std::lower_bound(a.col.begin() + b, a.col.begin() + e, r);
    if (it == a.col.begin() + e || *it != r)
      throw InputError(m.name, m.size_line,
                       fmt::format("row {} has no diagonal entry: the matrix is not positive "
                                   "definite (CG needs an SPD matrix)",
                                   r + 1));
    const double d = a.val[it - a.col.begin()];
    if (!(d > 0))
      throw InputError(m.name, line_of(r, r),
                       fmt::format("diagonal entry A({},{}) = {} is not positive: the matrix is "
                                   "not positive definite (CG needs an SPD matrix)",
                                   r + 1, r + 1, d));
  }
  return a;
}

HostCsr read_cg_matrix(std::istream& in, const std::string& name) {
  return cg_matrix(read_matrix_market(in, name));
}

HostCsr read_cg_matrix_file(const std::string& path) {
  return cg_matrix(read_matrix_market_file(path));
}

std::vector<double> to_vector(const MatrixMarket& m, std::int64_t n) {
  if (m.cols != 1)
    throw InputError(
        m.name, m.size_line,
        fmt::format("expected a vector (one column), this is a {} x {} matrix", m.rows, m.cols));
  if (m.rows != n)
    throw InputError(m.name, m.size_line,
                     fmt::format("vector has {} entries, the matrix has {} rows", m.rows, n));
  if (m.format == "array") return m.dense;
  std::vector<double> v(n, 0.0);
  for (std::size_t k = 0; k < m.row.size(); ++k) v[m.row[k]] += m.val[k];
  return v;
}

std::vector<double> read_vector_file(const std::string& path, std::int64_t n) {
  return to_vector(read_matrix_market_file(path), n);
}

void write_matrix_market(std::ostream& out, const HostCsr& a, bool symmetric,
                         const std::string& comment) {
  std::int64_t n = 0;
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (std::int64_t k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k)
      if (!symmetric || a.col[k] <= r) ++n;
  out << "%%MatrixMarket matrix coordinate real " << (symmetric ? "symmetric" : "general") << "\n";
  if (!comment.empty()) out << "% " << comment << "\n";
  out << a.rows << " " << a.cols << " " << n << "\n";
  std::string buf;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    for (std::int64_t k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
      if (symmetric && a.col[k] > r) continue;
      buf.clear();
      fmt::format_to(std::back_inserter(buf), "{} {} {}\n", r + 1, a.col[k] + 1, a.val[k]);
      out << buf;
    }
  }
}

void write_vector(std::ostream& out, const std::vector<double>& v, const std::string& comment) {
  out << "%%MatrixMarket matrix array real general\n";
  if (!comment.empty()) out << "% " << comment << "\n";
  out << v.size() << " 1\n";
  for (double x : v) out << fmt_double(x) << "\n";
}

}  // namespace mdremap::cg

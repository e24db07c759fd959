#include "sp/cnf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <istream>
#include <limits>
#include <map>
#include <ostream>

#include <unistd.h>

#include "mdremap/error.hpp"

namespace mdremap::sp {

std::int64_t count_unsatisfied(const Formula& f, const std::vector<std::int8_t>& value,
                               std::int64_t* first) {
  std::int64_t bad = 0;
  if (first) *first = -1;
  for (std::int64_t c = 0; c < f.clauses(); ++c) {
    bool sat = false;
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1] && !sat; ++k) {
      const std::int32_t v = lit_var(f.lits[k]);
      const std::int8_t x = v < static_cast<std::int32_t>(value.size()) ? value[v] : 0;
      sat = lit_neg(f.lits[k]) ? x == -1 : x == 1;
    }
    if (!sat) {
      if (first && *first < 0) *first = c;
      ++bad;
    }
  }
  return bad;
}

namespace {

// Buffered byte reader that counts lines (a formula of 10^7 variables is over a gigabyte of
// text: no per-character stream calls).
class Scanner {
 public:
  explicit Scanner(std::istream& in) : in_(in), buf_(1 << 20) {}
  int peek() {
    if (pos_ == end_ && !fill()) return -1;
    return static_cast<unsigned char>(buf_[pos_]);
  }
  int get() {
    const int c = peek();
    if (c >= 0) {
      ++pos_;
      if (c == '\n') ++line_;
    }
    return c;
  }
  int line() const { return line_; }

 private:
  bool fill() {
    if (!in_) return false;
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    pos_ = 0;
    end_ = static_cast<std::size_t>(in_.gcount());
    return end_ > 0;
  }
  std::istream& in_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  int line_ = 1;
};

bool is_blank(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(int c) {
  return c >= '0' && c <= '9';
}
bool is_space(int c) {
  return is_blank(c) || c == '\n';
}

std::string printable(int c) {
  if (c >= 33 && c < 127) return fmt::format("'{}'", static_cast<char>(c));
  return fmt::format("byte 0x{:02x}", c);
}

class Reader {
 public:
  Reader(std::istream& in, const std::string& name, CnfNotes& notes)
      : sc_(in), name_(name), notes_(notes) {}

  Formula run() {
    bool line_start = true;
    for (;;) {
      const int ch = sc_.peek();
      if (ch < 0) break;
      if (ch == '\n') {
        sc_.get();
        line_start = true;
      } else if (is_blank(ch)) {
        sc_.get();
      } else if (line_start && ch == 'c') {
        skip_line();
      } else if (line_start && ch == 'p') {
        header();
        line_start = false;
      } else if (line_start && ch == '%') {
        satlib_end();
        break;
      } else if (ch == '-' || is_digit(ch)) {
        literal(number("literal"));
        line_start = false;
      } else {
        fail(sc_.line(), "unexpected " + printable(ch) +
                             " (expected a literal, a 'c' comment line or the 'p cnf' header)");
      }
    }
    if (!have_header_) fail(sc_.line(), "no 'p cnf VARIABLES CLAUSES' header");
    if (!clause_.empty()) {
      warn("unterminated", clause_line_, "the last clause has no terminating 0 (accepted)");
      end_clause(clause_line_);
    }
    notes_.header_clauses = header_clauses_;
    notes_.clauses_read = clauses_read_;
    if (clauses_read_ != header_clauses_)
      warn("count", header_line_,
           fmt::format("the header declares {} clauses but the file has {} (all {} are used)",
                       header_clauses_, clauses_read_, clauses_read_));
    check_memory();
    summarise();
    return std::move(f_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw InputError(name_, line, problem);
  }
  // The first few warnings of each kind are given with their line; the rest are counted.
  void warn(const std::string& kind, int line, const std::string& text) {
    if (++warned_[kind] <= 3)
      notes_.warnings.push_back(fmt::format("{}:{}: warning: {}", name_, line, text));
  }
  void summarise() {
    for (const auto& [kind, n] : warned_)
      if (n > 3)
        notes_.warnings.push_back(
            fmt::format("{}: warning: {} more of the same ({})", name_, n - 3, kind));
  }

  void skip_line() {
    while (sc_.peek() >= 0 && sc_.peek() != '\n') sc_.get();
  }
  void skip_blanks() {
    while (is_blank(sc_.peek())) sc_.get();
  }
  // A whitespace-delimited token of at most 40 characters (longer ones are refused).
  std::string word() {
    std::string w;
    while (sc_.peek() >= 0 && !is_space(sc_.peek())) {
      if (w.size() == 40) fail(sc_.line(), "token too long: '" + w + "...'");
      w.push_back(static_cast<char>(sc_.get()));
    }
    return w;
  }
  // An optionally negative decimal integer whose magnitude fits 62 bits, followed by
  // whitespace or the end of the file.
  std::int64_t number(const char* what) {
    const int line = sc_.line();
    bool neg = false;
    std::string text;
    if (sc_.peek() == '-') {
      neg = true;
      text.push_back(static_cast<char>(sc_.get()));
    }
    std::int64_t v = 0;
    bool digits = false, big = false;
    while (is_digit(sc_.peek())) {
      const int d = sc_.get() - '0';
      if (text.size() < 24) text.push_back(static_cast<char>('0' + d));
      digits = true;
      if (v > (std::numeric_limits<std::int64_t>::max() / 4 - d) / 10)
        big = true;
      else
        v = v * 10 + d;
    }
    if (!digits || (sc_.peek() >= 0 && !is_space(sc_.peek()))) {
      while (sc_.peek() >= 0 && !is_space(sc_.peek()) && text.size() < 24)
        text.push_back(static_cast<char>(sc_.get()));
      fail(line, fmt::format("malformed {} '{}' (expected an integer)", what, text));
    }
    if (big) fail(line, fmt::format("{} '{}...' is too large", what, text));
    return neg ? -v : v;
  }

  // The declared variables against memory, before anything is sized by them (a 4-line file
  // may declare two billion): the solver keeps about kBytesPerVariable per variable.
  void check_memory() {
    static constexpr double kBytesPerVariable = 64;
    const double host = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                        static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    const double need = kBytesPerVariable * f_.nvars + 16.0 * static_cast<double>(f_.lits.size());
    if (host > 0 && need > host)
      fail(header_line_, fmt::format("the header declares {} variables (the clauses use {}): they "
                                     "need at least {:.3g} GB of host memory; this machine has "
                                     "{:.3g} GB",
                                     f_.nvars, max_var_, need / 1e9, host / 1e9));
  }

  void header() {
    const int line = sc_.line();
    if (have_header_)
      fail(line, fmt::format("second 'p' header (the first is on line {})", header_line_));
    if (clauses_read_ > 0 || !clause_.empty())
      fail(line, "the 'p cnf' header comes after clauses; it must precede them");
    sc_.get();  // 'p'
    if (!is_blank(sc_.peek())) fail(line, "malformed header: expected 'p cnf VARIABLES CLAUSES'");
    skip_blanks();
    const std::string fmt_word = word();
    if (fmt_word != "cnf")
      fail(line, "unsupported format 'p " + fmt_word +
                     "': only 'p cnf VARIABLES CLAUSES' formulas are read");
    skip_blanks();
    if (!(sc_.peek() == '-' || is_digit(sc_.peek())))
      fail(line, "malformed header: expected 'p cnf VARIABLES CLAUSES'");
    const std::int64_t vars = number("variable count");
    skip_blanks();
    if (!(sc_.peek() == '-' || is_digit(sc_.peek())))
      fail(line, "malformed header: expected 'p cnf VARIABLES CLAUSES'");
    const std::int64_t clauses = number("clause count");
    skip_blanks();
    if (sc_.peek() >= 0 && sc_.peek() != '\n')
      fail(line, "malformed header: unexpected text after 'p cnf VARIABLES CLAUSES'");
    if (vars < 0) fail(line, fmt::format("negative variable count {}", vars));
    if (clauses < 0) fail(line, fmt::format("negative clause count {}", clauses));
    if (vars > std::numeric_limits<std::int32_t>::max() - 1)
      fail(line, fmt::format("{} variables: at most {} are supported", vars,
                             std::numeric_limits<std::int32_t>::max() - 1));
    have_header_ = true;
    header_line_ = line;
    header_clauses_ = clauses;
    f_.nvars = static_cast<std::int32_t>(vars);
    // Capacity from the header only up to a bound: the body decides the real size.
    f_.clause_offset.reserve(static_cast<std::size_t>(std::min<std::int64_t>(clauses, 1 << 22)) +
                             1);
  }

  void literal(std::int64_t lit) {
    const int line = sc_.line();
    if (!have_header_) fail(line, "clause before the 'p cnf VARIABLES CLAUSES' header");
    if (lit == 0) {
      end_clause(line);
      return;
    }
    if (lit > f_.nvars || lit < -static_cast<std::int64_t>(f_.nvars))
      fail(line, fmt::format("literal {} is outside [-{}, {}] (the header declares {} variables)",
                             lit, f_.nvars, f_.nvars, f_.nvars));
    if (clause_.empty()) clause_line_ = line;
    clause_.push_back(static_cast<std::int32_t>(lit));
    max_var_ = std::max<std::int64_t>(max_var_, lit < 0 ? -lit : lit);
  }

  void end_clause(int line) {
    ++clauses_read_;
    if (clause_.empty()) {
      ++notes_.empty_clauses;
      warn("empty clause", line, "empty clause: the formula is unsatisfiable");
      f_.clause_offset.push_back(static_cast<std::int64_t>(f_.lits.size()));
      return;
    }
    // Repeated literals and x with -x, found on a sorted copy (clauses are short).
    sorted_.assign(clause_.begin(), clause_.end());
    std::sort(sorted_.begin(), sorted_.end(), [](std::int32_t a, std::int32_t b) {
      const std::int32_t va = lit_var(a), vb = lit_var(b);
      return va != vb ? va < vb : a < b;
    });
    bool dup = false, taut = false;
    for (std::size_t i = 1; i < sorted_.size(); ++i) {
      if (sorted_[i] == sorted_[i - 1]) dup = true;
      if (sorted_[i] == -sorted_[i - 1]) taut = true;
    }
    if (taut) {
      ++notes_.tautologies;
      warn("tautology", clause_line_,
           "clause holds a variable and its negation (always true): dropped");
      clause_.clear();
      return;
    }
    if (dup) {
      sorted_.erase(std::unique(sorted_.begin(), sorted_.end()), sorted_.end());
      std::vector<char> used(sorted_.size(), 0);
      std::size_t kept = 0;
      for (std::int32_t l : clause_) {
        const auto it =
            std::lower_bound(sorted_.begin(), sorted_.end(), l, [](std::int32_t a, std::int32_t b) {
              const std::int32_t va = lit_var(a), vb = lit_var(b);
              return va != vb ? va < vb : a < b;
            });
        const std::size_t i = static_cast<std::size_t>(it - sorted_.begin());
        if (used[i]) continue;
        used[i] = 1;
        clause_[kept++] = l;
      }
      notes_.duplicate_literals += static_cast<std::int64_t>(clause_.size() - kept);
      clause_.resize(kept);
      warn("duplicate literal", clause_line_, "repeated literal in a clause: kept once");
    }
    f_.lits.insert(f_.lits.end(), clause_.begin(), clause_.end());
    f_.clause_offset.push_back(static_cast<std::int64_t>(f_.lits.size()));
    clause_.clear();
  }

  // SATLIB files end with "%" and a lone "0": the formula ends at '%'; anything else after it is
  // ignored with a warning.
  void satlib_end() {
    const int line = sc_.line();
    sc_.get();
    bool other = false;
    for (int c = sc_.get(); c >= 0; c = sc_.get())
      if (!is_space(c) && c != '0') other = true;
    if (other) warn("percent", line, "'%' ends the formula (SATLIB); the text after it is ignored");
  }

  Scanner sc_;
  std::string name_;
  CnfNotes& notes_;
  Formula f_;
  bool have_header_ = false;
  int header_line_ = 0, clause_line_ = 0;
  std::int64_t header_clauses_ = 0, clauses_read_ = 0;
  std::int64_t max_var_ = 0;  // the largest variable a clause uses
  std::vector<std::int32_t> clause_, sorted_;
  std::map<std::string, std::int64_t> warned_;
};

}  // namespace

Formula read_cnf(std::istream& in, const std::string& name, CnfNotes* notes) {
  CnfNotes local;
  Reader r(in, name, notes ? *notes : local);
  try {
    return r.run();
  } catch (const std::bad_alloc&) {
    throw InputError(name, 0, "formula too large for this machine's memory");
  } catch (const std::length_error&) {
    throw InputError(name, 0, "formula too large for this machine's memory");
  }
}

Formula read_cnf_file(const std::string& path, CnfNotes* notes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open CNF file (missing file or no permission)");
  Formula f = read_cnf(in, path, notes);
  if (in.bad()) throw InputError(path, 0, "read error");
  return f;
}

void write_cnf(std::ostream& out, const Formula& f, const std::vector<std::string>& comment) {
  for (const auto& c : comment) out << "c " << c << "\n";
  out << "p cnf " << f.nvars << " " << f.clauses() << "\n";
  std::string line;
  for (std::int64_t c = 0; c < f.clauses(); ++c) {
    line.clear();
    for (std::int64_t k = f.clause_offset[c]; k < f.clause_offset[c + 1]; ++k) {
      line += std::to_string(f.lits[k]);
      line += ' ';
    }
    line += "0\n";
    out << line;
  }
}

}  // namespace mdremap::sp

// Tiny command-line flag reader shared by the apps: "--name value" or "--name=value",
// with defaults from environment variables. Unknown flags are errors.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cadastre::cli {

class Flags {
 public:
  /// `known`: flag names without "--"; `booleans`: those that take no value.
  Flags(int argc, char** argv, int first, std::set<std::string> known, std::set<std::string> booleans = {}) {
    for (int i = first; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
        continue;
      }
      std::string name = a.substr(2), value;
      auto eq = name.find('=');
      bool has_value = eq != std::string::npos;
      if (has_value) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (!known.count(name) && !booleans.count(name)) throw std::invalid_argument("opção desconhecida: --" + name);
      if (booleans.count(name)) {
        values_[name].push_back(has_value ? value : "true");
      } else {
        if (!has_value) {
          if (i + 1 >= argc) throw std::invalid_argument("a opção --" + name + " precisa de um valor");
          value = argv[++i];
        }
        values_[name].push_back(value);
      }
    }
  }

  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second.back();
  }
  std::string get(const std::string& name, const std::string& fallback, const char* env = nullptr) const {
    if (auto v = get(name)) return *v;
    if (env)
      if (const char* e = std::getenv(env)) return e;
    return fallback;
  }
  long long get_int(const std::string& name, long long fallback, const char* env = nullptr) const {
    std::string v = get(name, std::to_string(fallback), env);
    std::size_t used = 0;
    long long out = 0;
    try {
      out = std::stoll(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.size() || v.empty()) throw std::invalid_argument("--" + name + " deve ser um número inteiro: " + v);
    return out;
  }
  /// A comma-separated value as its non-empty items ("a,,b" → a, b).
  std::vector<std::string> get_list(const std::string& name, const std::string& fallback, const char* env = nullptr) const {
    std::vector<std::string> out;
    std::string v = get(name, fallback, env);
    for (std::size_t start = 0; start <= v.size();) {
      std::size_t comma = std::min(v.find(',', start), v.size());
      if (comma > start) out.push_back(v.substr(start, comma - start));
      start = comma + 1;
    }
    return out;
  }
  bool has(const std::string& name) const { return values_.count(name) > 0 && get(name) != "false"; }
  std::vector<std::string> all(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
  }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

}  // namespace cadastre::cli

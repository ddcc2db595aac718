// A job's parameters as its handler reads them back (jobs.hpp: a job's work is rebuilt from
// its row on whichever instance claims it): the members of the flat JSON object the route
// wrote with JsonWriter at submit.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::platform::jobs {

class Parameters {
 public:
  /// Reads the object; a text that is not one is a broken row (cadastre::Error internal).
  explicit Parameters(std::string_view json);

  std::optional<std::string> text(const std::string& key) const;
  std::optional<std::int64_t> integer(const std::string& key) const;
  std::optional<bool> boolean(const std::string& key) const;
  /// An array of texts (empty when absent).
  std::vector<std::string> texts(const std::string& key) const;

  /// The member that must be there (cadastre::Error internal otherwise).
  std::string required_text(const std::string& key) const;
  std::int64_t required_integer(const std::string& key) const;

 private:
  struct Member {
    std::optional<std::string> text;
    std::optional<std::int64_t> integer;
    std::optional<bool> boolean;
    std::vector<std::string> texts;
  };
  std::map<std::string, Member, std::less<>> members_;
};

}  // namespace cadastre::platform::jobs

// The one file store of every service (cadastre-server's media, the platform's files,
// rasters, uploads in parts, kriging rasters, import inputs) and of the demo loader: a
// directory tree under one root, which production mounts on every machine (NFS, CephFS;
// docs/operations.md, "Files").
//
// What makes it safe to share between processes and machines:
// - No index in memory: a file is its path. Paths are built by the callers from ids and
//   random keys (keys.hpp), never from a client's name, and every component is checked
//   (valid_relative): no "..", no absolute path, no separator inside a name.
// - Atomic writes: the bytes go to a temporary name in the target's directory (".tmp-…",
//   a name valid_relative refuses, so no caller can address one), are fsynced, renamed
//   into place and the directory fsynced. A reader never sees a partial file; two writers
//   of one path leave one complete file (the last rename); a failed write leaves nothing.
// - No link is followed below the root: every directory is opened with O_NOFOLLOW
//   (openat), so a symbolic link planted in the store never leads outside it, and only
//   regular files are read (a FIFO cannot hang a worker).
// Pure C++ and POSIX: no SQL, no HTTP.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cadastre::file_store {

/// Whether `rel` is a path this store accepts: non-empty names of [A-Za-z0-9_.-] joined by
/// '/', none empty, "." or "..", none starting with ".tmp-" (the store's own temporaries).
bool valid_relative(std::string_view rel);

class Store {
 public:
  /// `root`: the store's directory (created on first write). Empty: no store — every call
  /// that needs one throws cadastre::Error 503.
  explicit Store(std::string root) : root_(std::move(root)) {}

  bool enabled() const noexcept { return !root_.empty(); }
  const std::string& root() const noexcept { return root_; }

  /// Writes `bytes` at `rel`, atomically (see the header), creating its directories.
  /// Throws std::runtime_error with the system's words on failure (a 500 to clients: the
  /// words name paths of the store and go to the log only).
  void write(std::string_view rel, std::string_view bytes) const;
  /// The content of `rel`; nullopt when it is not a regular file reached without a link.
  std::optional<std::string> read(std::string_view rel) const;
  /// The size of `rel` when it is such a file.
  std::optional<std::uintmax_t> size(std::string_view rel) const;
  bool exists(std::string_view rel) const { return size(rel).has_value(); }
  /// Removes the file or directory tree at `rel` (nothing when absent; never throws).
  void remove(std::string_view rel) const noexcept;
  /// Renames `from` to `to` within the store (atomic: one filesystem), creating `to`'s
  /// directories. Throws std::runtime_error when `from` is missing or the rename fails.
  void rename(std::string_view from, std::string_view to) const;

  /// Writes `bytes` at `offset` of the file `rel` (created when `offset` is 0), dropping
  /// whatever followed: a resumable upload's part sent again replaces the earlier copy.
  /// Returns false, writing nothing, when the file holds fewer than `offset` bytes (or is
  /// missing and `offset` > 0): the earlier parts are gone.
  bool write_at(std::string_view rel, std::uintmax_t offset, std::string_view bytes) const;

  /// The absolute path of `rel`, for a library that opens files by name (GDAL). Checked
  /// like every other path; the caller reads, never writes, through it.
  std::filesystem::path path(std::string_view rel) const;

  /// A file a library writes by name (GDAL) before it joins the store: a fresh temporary
  /// path in directory `dir` (created), removed with the Scratch unless published, when it
  /// is fsynced and renamed to its place atomically. Publish to a path in the same
  /// directory or any other of the store (one filesystem: the rename stays atomic).
  class Scratch {
   public:
    Scratch(Scratch&& o) noexcept : store_(o.store_), rel_(std::move(o.rel_)) { o.rel_.clear(); }
    Scratch& operator=(Scratch&&) = delete;
    ~Scratch();
    /// Where the library writes.
    std::filesystem::path path() const;
    /// Writes `bytes` to the scratch file (a copy a library checks by name).
    void write(std::string_view bytes) const;
    /// Makes the written file the store's `rel` (fsync, rename, fsync of the directory).
    void publish(std::string_view rel);

   private:
    friend class Store;
    Scratch(const Store& store, std::string rel) : store_(&store), rel_(std::move(rel)) {}
    const Store* store_;
    std::string rel_;  // empty once published or moved from
  };
  /// A scratch file in `dir`, its name ending with `suffix` (".tif": what GDAL reads as
  /// the format).
  Scratch scratch(std::string_view dir, std::string_view suffix) const;

 private:
  std::string root_;
};

}  // namespace cadastre::file_store

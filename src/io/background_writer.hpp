#pragma once
// Output off the step loop: write jobs run in submission order on one background thread, so a
// GPU run only pays for copying a frame off the device. At most `depth` jobs wait; submit() blocks
// beyond that, so a slow disk slows the run instead of filling memory. HDF5 is not built
// thread-safe: a file written here must not be touched by another thread until finish().
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace mdremap::io {

class BackgroundWriter {
 public:
  explicit BackgroundWriter(std::size_t depth = 2);
  ~BackgroundWriter();  // waits for the queued jobs; their errors are dropped (call finish())
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Queues `job`; rethrows instead the error of an earlier job, if any (after an error nothing
  // more runs, so files stop at the last complete write).
  void submit(std::function<void()> job);
  // Waits until every queued job has run; rethrows the first error.
  void finish();

 private:
  void loop();
  void rethrow_locked();

  std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace mdremap::io

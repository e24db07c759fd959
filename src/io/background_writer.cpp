#include "io/background_writer.hpp"

namespace mdremap::io {

BackgroundWriter::BackgroundWriter(std::size_t depth)
    : depth_(depth < 1 ? 1 : depth), thread_([this] { loop(); }) {}

BackgroundWriter::~BackgroundWriter() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundWriter::rethrow_locked() {
  if (error_) std::rethrow_exception(error_);  // sticky: nothing is written after a failure
}

void BackgroundWriter::submit(std::function<void()> job) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.size() < depth_ || error_; });
  rethrow_locked();
  jobs_.push_back(std::move(job));
  changed_.notify_all();
}

void BackgroundWriter::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (jobs_.empty() && !busy_) || error_; });
  rethrow_locked();
}

void BackgroundWriter::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stop_ and nothing left
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      job();
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failed) {
      if (!error_) error_ = failed;
      jobs_.clear();  // later frames would follow a gap: stop at the last complete write
    }
    changed_.notify_all();
  }
}

}  // namespace mdremap::io

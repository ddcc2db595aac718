// A job that holds one of a runner's turns until the test releases it, so that "pendente"
// and "executando" are states a test chooses, never a race; and a wait for every job
// submitted before (the runner takes a tenant's jobs in order, one at a time by default).
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "platform/app.hpp"
#include "platform/jobs/jobs.hpp"
#include "service/scope.hpp"
#include "store/tenants.hpp"

namespace cadastre::test {

/// Submits `job` with `work` as its handler: the work is registered on `runner` under a
/// name of its own (jobs.hpp: the runner runs registered handlers, rebuilt on any
/// instance; a test's work is known to this runner only, so only it claims the job).
inline platform::jobs::Submitted submit_work(platform::jobs::Runner& runner, const service::Scope& scope,
                                            platform::jobs::Job job, platform::jobs::Handler work) {
  static std::atomic<int> next{0};
  job.handler = "teste-" + std::to_string(++next);
  runner.handle(job.handler, std::move(work), job.tipo != "previa");
  return runner.submit(scope, std::move(job));
}

/// A runner of the imports lane of `app`'s databases with a budget of the test's own.
inline std::unique_ptr<platform::jobs::Runner> job_runner(platform::App& app, platform::jobs::Budget budget) {
  platform::jobs::Setup setup;
  setup.platform = &app.platform();
  setup.tenant = [&app](std::int64_t id) -> std::optional<platform::jobs::Tenant> {
    auto t = app.identity().tenant_by_id(id);
    if (!t) return std::nullopt;
    return platform::jobs::Tenant{&app.tenants().pool(*t), t->slug};
  };
  setup.files_root = app.options().files_dir;
  setup.budget = budget;
  return std::make_unique<platform::jobs::Runner>(std::move(setup));
}

class HeldJob {
 public:
  /// Submits (as `scope`, of `tipo`) a job whose work waits for release(), and waits until
  /// a worker runs it.
  HeldJob(platform::jobs::Runner& runner, const service::Scope& scope, std::string tipo = "shp") {
    auto started = std::make_shared<std::promise<void>>();
    auto started_future = started->get_future();
    platform::jobs::Job job;
    job.tipo = std::move(tipo);
    id = submit_work(runner, scope, std::move(job), [started, go = go_](platform::jobs::Context&) {
           started->set_value();
           go.wait();
         }).id;
    REQUIRE(started_future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  }
  /// Released whatever happens in the test, so the worker (joined when the App goes) is
  /// never left waiting.
  ~HeldJob() { release(); }
  HeldJob(const HeldJob&) = delete;
  HeldJob& operator=(const HeldJob&) = delete;

  void release() {
    if (!released_) release_.set_value();
    released_ = true;
  }

  std::int64_t id = 0;

 private:
  std::promise<void> release_;
  std::shared_future<void> go_ = release_.get_future().share();
  bool released_ = false;
};

/// Submits a last job of `tipo` and waits until it runs: the jobs of the tenant submitted
/// before it have ended by then.
inline void wait_for_jobs_before(platform::jobs::Runner& runner, const service::Scope& scope,
                                 std::string tipo = "shp") {
  auto ran = std::make_shared<std::promise<void>>();
  auto ran_future = ran->get_future();
  platform::jobs::Job job;
  job.tipo = std::move(tipo);
  submit_work(runner, scope, std::move(job), [ran](platform::jobs::Context&) { ran->set_value(); });
  REQUIRE(ran_future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
}

}  // namespace cadastre::test

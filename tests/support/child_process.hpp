// Helper processes of the tests (slapd, the SMTP sink): ending one politely, then firmly.
#pragma once

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

namespace cadastre::test {

/// Sends SIGTERM to `pid`, waits up to 5 s for it to exit, then SIGKILLs and reaps it.
inline void stop_child(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  int status = 0;
  for (int i = 0; i < 250; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
}

}  // namespace cadastre::test

# Sourced by bin/punctual (POSIX sh; also in the repositories `punctual init` writes). Two launchers
# started at once on stale jars would otherwise both build, one replacing the jar the other is reading
# or about to run. So one build per checkout at a time: the lock is a directory (mkdir is atomic on every
# file system and needs no flock(1), which macOS lacks) holding its holder's pid. A holder that died
# mid-build (killed, machine slept) leaves the directory behind: a waiter that finds its pid gone, or
# no pid written within PUNCTUAL_LOCK_PID_WAIT seconds, takes the lock over. Two waiters taking over the
# same dead holder's lock in the same instant can both get it; the cost is one duplicate build, which is
# what every concurrent start cost before this lock, so the simple lock is kept.

PUNCTUAL_LOCK_PID_WAIT=10

# Waits for and takes the lock at $1, a directory path; released by punctual_unlock or on exit.
punctual_lock() {
  punctual_lock_dir="$1"
  punctual_lock_said=""
  punctual_lock_nopid=0
  mkdir -p "$(dirname "$punctual_lock_dir")"
  while ! mkdir "$punctual_lock_dir" 2>/dev/null; do
    holder="$(cat "$punctual_lock_dir/pid" 2>/dev/null || true)"
    if [ -z "$holder" ]; then
      punctual_lock_nopid=$((punctual_lock_nopid + 1))
    else
      punctual_lock_nopid=0
    fi
    if { [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; } || [ "$punctual_lock_nopid" -gt "$PUNCTUAL_LOCK_PID_WAIT" ]; then
      # Left behind by a holder that is gone: take it over (a rename is atomic, so one waiter wins).
      mv "$punctual_lock_dir" "$punctual_lock_dir.stale.$$" 2>/dev/null && rm -rf "$punctual_lock_dir.stale.$$"
      continue
    fi
    if [ -z "$punctual_lock_said" ]; then
      echo "punctual: waiting for another build of this checkout${holder:+ (pid $holder)}" >&2
      punctual_lock_said=1
    fi
    sleep 1
  done
  echo "$$" > "$punctual_lock_dir/pid"
  trap 'rm -rf "$punctual_lock_dir"' EXIT
  trap 'rm -rf "$punctual_lock_dir"; exit 130' INT
  trap 'rm -rf "$punctual_lock_dir"; exit 143' TERM
}

punctual_unlock() {
  rm -rf "$punctual_lock_dir"
  trap - EXIT INT TERM
}

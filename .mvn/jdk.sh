# Sourced by ./mvnw and .ci/run (POSIX sh). Punctual compiles for Java 21, so Maven must run on a
# JDK 21 or newer. The default `java` on many machines is older; rather than fail deep inside the
# compiler, pick a suitable JDK here: JAVA_HOME when it is new enough, then `java` on PATH, then
# the newest JDK under /usr/lib/jvm. Stop with a message naming every place looked at otherwise.

PUNCTUAL_MIN_JAVA=21

# Prints the feature version (17, 21, 25, ...) of the JDK at $1, or nothing when it is not a JDK.
punctual_jdk_version() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

punctual_select_jdk() {
  punctual_looked=""
  if [ -n "${JAVA_HOME-}" ]; then
    v="$(punctual_jdk_version "$JAVA_HOME")"
    if [ -n "$v" ] && [ "$v" -ge "$PUNCTUAL_MIN_JAVA" ]; then
      export JAVA_HOME
      punctual_jdk_feature="$v"
      return 0
    fi
    punctual_looked="$punctual_looked
  JAVA_HOME=$JAVA_HOME (version ${v:-none})"
  fi
  path_java="$(command -v java 2>/dev/null || true)"
  if [ -n "$path_java" ]; then
    path_home="$(dirname "$(dirname "$(readlink -f "$path_java")")")"
    v="$(punctual_jdk_version "$path_home")"
    if [ -n "$v" ] && [ "$v" -ge "$PUNCTUAL_MIN_JAVA" ]; then
      JAVA_HOME="$path_home"
      export JAVA_HOME
      punctual_jdk_feature="$v"
      return 0
    fi
    punctual_looked="$punctual_looked
  java on PATH: $path_java (version ${v:-none})"
  fi
  best="" best_v=0
  case "$-" in *f*) punctual_noglob=1; set +f ;; *) punctual_noglob=0 ;; esac
  for candidate in /usr/lib/jvm/*; do
    [ -d "$candidate" ] || continue
    v="$(punctual_jdk_version "$candidate")"
    punctual_looked="$punctual_looked
  $candidate (version ${v:-not a JDK})"
    if [ -n "$v" ] && [ "$v" -ge "$PUNCTUAL_MIN_JAVA" ] && [ "$v" -gt "$best_v" ]; then
      best="$candidate" best_v="$v"
    fi
  done
  [ "$punctual_noglob" = 1 ] && set -f
  if [ -n "$best" ]; then
    JAVA_HOME="$best"
    export JAVA_HOME
    punctual_jdk_feature="$best_v"
    return 0
  fi
  echo "Punctual needs a JDK $PUNCTUAL_MIN_JAVA or newer to build, and found none. Looked at:${punctual_looked:-
  (JAVA_HOME unset, no java on PATH, nothing under /usr/lib/jvm)}
Install a JDK $PUNCTUAL_MIN_JAVA+ (for example Temurin 21 or 25) and set JAVA_HOME to it." >&2
  return 1
}

# After punctual_select_jdk, for ./mvnw: on a JDK 24 or newer, the build's plugins that still call
# sun.misc.Unsafe (spotless) make the JVM print four "WARNING: A terminally deprecated method" lines on
# every build; Maven is allowed that access so a team's first `./mvnw install` prints nothing it need
# not act on. An older JDK does not know the option (and prints nothing), so it is added only from 24.
punctual_quiet_maven() {
  if [ "${punctual_jdk_feature:-0}" -ge 24 ]; then
    case " ${MAVEN_OPTS-} " in
      *" --sun-misc-unsafe-memory-access="*) ;;
      *) MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"; export MAVEN_OPTS ;;
    esac
  fi
}

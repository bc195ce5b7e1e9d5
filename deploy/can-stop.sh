#!/usr/bin/env bash
# Waits until Shard Manager says executors may stop now, for a rolling deploy
# (a loop in a deploy tool, or a Kubernetes preStop hook). It polls
# `smctl executor can-stop` until the executors may stop, or a timeout.
#
# Usage:
#   deploy/can-stop.sh [options] ID...
#   deploy/can-stop.sh [options] --selector KEY=VALUE [--selector KEY=VALUE ...]
#
# Options:
#   -n, --namespace NS    look in NS only (default: every namespace, unless
#                         SMCTL_NAMESPACE or the smctl context names one)
#   -s, --selector K=V    the executors whose metadata has K=V (repeatable)
#   --any                 succeed as soon as some of them may stop (the ones
#                         that may go first), not only all of them
#   --until-leaving       instead, wait until Shard Manager has seen them stop:
#                         each is leaving (DRAINING), DRAINED, no longer alive
#                         or unknown. Run it after stopping a batch and before
#                         asking about the next: until their heartbeats say so,
#                         the service still counts them as serving
#   --timeout DURATION    give up after this long (default 10m; 90, 90s, 5m, 1h)
#   --interval DURATION   time between two questions (default 2s; 0.5s works)
#   -h, --help            this text
#
# Prints the ids that may stop now on stdout, one per line, and progress on
# stderr. smctl is found as $SMCTL (a command line, default "smctl"); its
# address, credentials and namespace come from its usual flags' environment
# variables (SMCTL_ADDRESS, SMCTL_ENDPOINTS, SMCTL_TOKEN, ...) or its context.
#
# Exit codes:
#   0  the executors may stop now (with --any: at least one of them may;
#      with --until-leaving: they are seen leaving or gone)
#   7  the timeout passed and they must still wait
#   2  usage error (here or in smctl)
#   3  unknown namespace
#   4  Shard Manager could not be reached until the timeout
#   other: smctl's exit code for another failure
set -u -o pipefail

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; }

seconds() { # DURATION -> seconds (a decimal only when $2 allows it), or fails
  local v=$1 digits=0-9
  [ "${2:-}" = decimal ] && digits=0-9.
  case $v in
    *[!${digits}smh]* | "" | [.smh]* | *.*.* | *.) return 1 ;;
    *.*h | *.*m) return 1 ;;
    *h) echo $((${v%h} * 3600)) ;;
    *m) echo $((${v%m} * 60)) ;;
    *s) echo "${v%s}" ;;
    *) echo "$v" ;;
  esac
}

namespace=()
selector=()
ids=()
any=0
until_leaving=0
timeout=600
interval=2
while [ $# -gt 0 ]; do
  case $1 in
    -n | --namespace) [ $# -ge 2 ] || { echo "can-stop.sh: $1 needs a value" >&2; exit 2; }
      namespace=(--namespace "$2"); shift 2 ;;
    -s | --selector) [ $# -ge 2 ] || { echo "can-stop.sh: $1 needs KEY=VALUE" >&2; exit 2; }
      selector+=(--selector "$2"); shift 2 ;;
    --any) any=1; shift ;;
    --until-leaving) until_leaving=1; shift ;;
    --timeout | --interval)
      [ $# -ge 2 ] || { echo "can-stop.sh: $1 needs a duration" >&2; exit 2; }
      kind=whole
      [ "$1" = --interval ] && kind=decimal
      if ! value=$(seconds "$2" "$kind"); then
        echo "can-stop.sh: invalid $1 \"$2\": expected seconds, or a number with s, m or h" >&2
        exit 2
      fi
      if [ "$1" = --timeout ]; then timeout=$value; else interval=$value; fi
      shift 2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; ids+=("$@"); break ;;
    -*) echo "can-stop.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done
if [ ${#ids[@]} -eq 0 ] && [ ${#selector[@]} -eq 0 ]; then
  echo "can-stop.sh: give executor ids or --selector KEY=VALUE (see --help)" >&2
  exit 2
fi
if [ ${#ids[@]} -gt 0 ] && [ ${#selector[@]} -gt 0 ]; then
  echo "can-stop.sh: give executor ids or --selector pairs, not both" >&2
  exit 2
fi
read -r -a smctl <<<"${SMCTL:-smctl}"

template='{.allowed}|{.mayStop[*]}|{.mustWait[*]}{"\n"}{range .namespaces[*]}{.namespace}: {.reason}{"\n"}{end}'
# --until-leaving: one line per executor and namespace; "serving" when it still counts as serving.
leaving='{.allowed}|{.mayStop[*]}|{.mustWait[*]}{"\n"}{range .namespaces[*].executors[*]}{.id} {.leaving} {.alive} {.status}{"\n"}{end}'
[ "$until_leaving" = 1 ] && template=$leaving
start=$(date +%s)
asked=0
while :; do
  asked=$((asked + 1))
  errors=$(mktemp)
  out=$("${smctl[@]}" "${namespace[@]}" executor can-stop "${selector[@]}" "${ids[@]}" \
    -o "jsonpath=$template" 2>"$errors")
  code=$?
  error=$(head -n 1 "$errors")
  rm -f "$errors"
  elapsed=$(($(date +%s) - start))
  case $code in
    0 | 7)
      if [ "$until_leaving" = 1 ]; then
        serving=$(tail -n +2 <<<"$out" |
          awk '$2 == "false" && $3 == "true" && $4 != "DRAINED" { print $1 }' | sort -u | tr '\n' ' ')
        if [ -z "$serving" ]; then
          echo "can-stop.sh: seen leaving or gone (asked $asked times in ${elapsed}s)" >&2
          exit 0
        fi
        echo "can-stop.sh: ${elapsed}s: not seen leaving yet: $serving" >&2
        last=7
      else
        IFS='|' read -r allowed may wait <<<"$(head -n 1 <<<"$out")"
        if [ "$allowed" = true ] || { [ "$any" = 1 ] && [ -n "$may" ]; }; then
          echo "can-stop.sh: may stop now: ${may:-(none asked)} (asked $asked times in ${elapsed}s)" >&2
          for id in $may; do echo "$id"; done
          exit 0
        fi
        reasons=$(tail -n +2 <<<"$out" | grep -v ': $' | tr '\n' ' ')
        echo "can-stop.sh: ${elapsed}s: may stop now: ${may:-none}; must wait: $wait. $reasons" >&2
        last=7
      fi ;;
    4)
      echo "can-stop.sh: ${elapsed}s: ${error#smctl: } (trying again)" >&2
      last=4 ;;
    *)
      echo "can-stop.sh: ${error:-smctl exited with code $code}" >&2
      exit "$code" ;;
  esac
  if [ "$elapsed" -ge "$timeout" ]; then
    echo "can-stop.sh: gave up after ${elapsed}s (--timeout ${timeout}s)" >&2
    exit "$last"
  fi
  sleep "$interval"
done

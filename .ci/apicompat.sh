#!/usr/bin/env bash
# API compatibility of every module against a previous release.
#
#   bash .ci/apicompat.sh [-repo DIR] [-tools DIR] REF
#
# REF is the previous release's tag (v0.1.0, or a nested module's own tag
# such as parsers/v0.1.0); its tree is compared with the working tree of this
# checkout by .ci/release/apicompat (golang.org/x/exp/apidiff), module by
# module, and the report names the next version each module's changes need.
# -repo takes the tag from another clone (CI passes the temporary clone that
# .ci/release.sh tags); -tools reuses binaries already built from .ci/release.
# Exit status 1: some module has incompatible changes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export GOTOOLCHAIN=local
REPO=$ROOT TOOLS=
while [ $# -gt 1 ]; do
	case $1 in
	-repo) REPO=$2; shift 2 ;;
	-tools) TOOLS=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "usage: $0 [-repo DIR] [-tools DIR] REF" >&2; exit 2; }
REF=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "$TOOLS" ]; then
	TOOLS=$TMP/bin
	(cd .ci/release && GOWORK=off go build -o "$TOOLS/" ./apicompat)
fi
mkdir -p "$TMP/old"
git -C "$REPO" archive "$REF" | tar -x -C "$TMP/old"
"$TOOLS/apicompat" -old "$TMP/old" -new "$ROOT" -base "${REF##*/}"

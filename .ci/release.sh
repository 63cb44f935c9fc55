#!/usr/bin/env bash
# The modules as a consumer gets them. Clones this repository's HEAD into a
# temporary directory, tags it with the first release's tags (never pushed;
# the clone is deleted), builds a file-system module proxy from the tags
# (.ci/release/mkproxy), and then, in fresh modules outside the workspace
# (GOWORK=off, an empty module cache, GOPROXY=file://…):
#
#   - every module's go.mod is tidy outside the workspace;
#   - each nested module installs alone: a program that imports every public
#     package of it builds, and its `go list -m all` names nothing outside
#     the module's own graph (no other agentwire module);
#   - the tokenizers module's graph does not name the Rust binding; the
#     tokenizers/hf package builds on its own (not linked: no libtokenizers);
#   - `go list -m all` of a consumer of the root module works;
#   - `go run github.com/agentwire/agentwire/examples/quickstart@VERSION`
#     works and prints a parsed call;
#
# and finally reports API compatibility of the working tree (.ci/apicompat.sh)
# against the last release tag, or before the first release against the
# temporary tags. RELEASE_VERSION (default v0.1.0) names the temporary tags. Third-party modules come from the machine's module
# cache (file://$(go env GOMODCACHE)/cache/download), falling back to the
# usual GOPROXY, so after `go mod download` it runs offline. The consumers
# start from the repository's go.sum lines (so third-party zips are checked
# against the hashes the repository recorded) with GOSUMDB=off; our own
# modules have no checksum database entry.
#
# Uncommitted changes are not in the clone: the step checks HEAD.
set -euo pipefail
start=$(date +%s)
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export GOTOOLCHAIN=local
V=${RELEASE_VERSION:-v0.1.0}
M=github.com/agentwire/agentwire
# module path = directory
MODULES="$M=. $M/parsers=parsers $M/protocols=protocols $M/tokenizers=tokenizers $M/tokenizers/hf=tokenizers/hf"
REALCACHE=$(go env GOMODCACHE)
NETPROXY=${RELEASE_FALLBACK_PROXY:-$(go env GOPROXY)} # "off" proves the step offline
TMP=$(mktemp -d)
cleanup() { chmod -R u+w "$TMP" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT

# quiet CMD...: runs CMD, showing its output only when it fails.
quiet() {
	local log=$TMP/log
	if ! "$@" >"$log" 2>&1; then
		cat "$log"; echo "failed: $*"; return 1
	fi
}

echo "-- [$(( $(date +%s) - start ))s] tools (.ci/release)"
(
	cd .ci/release
	export GOWORK=off
	go vet ./...
	quiet go test ./...
	go build -o "$TMP/bin/" ./...
)

echo "-- [$(( $(date +%s) - start ))s] clone HEAD and tag $V"
git clone -q "$ROOT" "$TMP/repo"
git -C "$TMP/repo" checkout -q --detach "$(git rev-parse HEAD)"
args=()
for m in $MODULES; do
	path=${m%%=*} dir=${m##*=}
	tag=$V
	[ "$dir" = . ] || tag=$dir/$V
	git -C "$TMP/repo" tag -f "$tag" >/dev/null
	args+=("$path=$dir@$tag")
done

echo "-- [$(( $(date +%s) - start ))s] file proxy"
"$TMP/bin/mkproxy" -repo "$TMP/repo" -out "$TMP/proxy" "${args[@]}"

# consumer runs a go command as a user outside the workspace would.
consumer() {
	env GOWORK=off GOFLAGS="-mod=mod -trimpath" GOMODCACHE="$TMP/modcache" \
		GOPROXY="file://$TMP/proxy,file://$REALCACHE/cache/download,$NETPROXY" \
		GOSUMDB=off GONOSUMDB= GOPRIVATE= GONOPROXY= "$@"
}

# newconsumer DIR: a fresh module whose go.sum holds the repository's lines.
newconsumer() {
	mkdir -p "$1"
	(cd "$1" && consumer go mod init example.com/consumer >/dev/null 2>&1)
	cat $(git ls-files '*go.sum') | sort -u >"$1/go.sum"
}

# public MODPATH: the module's importable packages (no commands, no internal).
public() {
	go list -f '{{if and (eq .Module.Path "'"$1"'") (ne .Name "main")}}{{.ImportPath}}{{end}}' "$1/..." |
		grep -v '/internal\(/\|$\)' || true
}

echo "-- [$(( $(date +%s) - start ))s] go.mod and go.sum tidy outside the workspace"
# Every module's requirements are complete without go.work. The go.sum lines
# of our own modules are the only difference allowed: their hashes exist
# only once the tags do (RELEASING.md: tag the nested modules first).
for m in $MODULES; do
	dir=${m##*=}
	(cd "$TMP/repo/$dir" && quiet consumer go mod tidy)
done
untidy=$(git -C "$TMP/repo" diff -U0 -- '*go.mod' '*go.sum' | grep '^[-+][^-+]' | grep -v '^+github.com/agentwire/agentwire/' || true)
if [ -n "$untidy" ]; then
	echo "go mod tidy (GOWORK=off) changes:"; git -C "$TMP/repo" diff -- '*go.mod' '*go.sum'; exit 1
fi
git -C "$TMP/repo" checkout -q -- .

for m in $MODULES; do
	path=${m%%=*} dir=${m##*=}
	[ "$dir" != . ] || continue
	echo "-- [$(( $(date +%s) - start ))s] $path@$V alone"
	c=$TMP/c-${dir//\//-}
	newconsumer "$c"
	(cd "$c" && quiet consumer go get "$path@$V")
	pkgs=$(public "$path")
	if [ "$dir" = tokenizers/hf ]; then
		# cgo: compiles without libtokenizers, cannot link without it.
		(cd "$c" && consumer go build $pkgs)
	else
		{
			echo "package main"
			echo "import ("
			for p in $pkgs; do echo "	_ \"$p\""; done
			echo ")"
			echo "func main() {}"
		} >"$c/main.go"
		(cd "$c" && consumer go build -o /dev/null .)
	fi
	# The consumer's module graph is the module's own graph (as its own
	# go.mod gives it, outside the workspace), nothing more.
	own=$(cd "$TMP/repo/$dir" && consumer go mod graph | tr ' ' '\n' | sed 's/@.*//' | sort -u)
	extra=$(cd "$c" && consumer go list -m -f '{{.Path}}' all | grep -vxF "$(printf '%s\n' example.com/consumer "$own")" || true)
	if [ -n "$extra" ]; then
		echo "$path: go list -m all of a consumer names modules outside the module's own graph:"; echo "$extra"; exit 1
	fi
	if [ "$dir" = tokenizers ] && (cd "$c" && consumer go list -m all | grep -q daulet/tokenizers); then
		echo "$path: the Rust binding is in the module graph"; exit 1
	fi
done

echo "-- [$(( $(date +%s) - start ))s] $M@$V (root)"
c=$TMP/c-root
newconsumer "$c"
(cd "$c" && quiet consumer go get "$M@$V")
(cd "$c" && consumer go list -m all >"$TMP/root-all")
for want in "$M $V" "$M/parsers $V" "$M/protocols $V" "$M/tokenizers $V"; do
	grep -qxF "$want" "$TMP/root-all" || { echo "root consumer: go list -m all lacks $want"; cat "$TMP/root-all"; exit 1; }
done
if grep -q daulet/tokenizers "$TMP/root-all"; then
	echo "root consumer: the Rust binding is in the module graph"; exit 1
fi

echo "-- [$(( $(date +%s) - start ))s] go run $M/examples/quickstart@$V"
out=$(cd "$TMP" && consumer go run "$M/examples/quickstart@$V")
if ! grep -q 'name=get_weather' <<<"$out"; then
	echo "quickstart printed no parsed call:"; echo "$out"; exit 1
fi

# Against the last real release when there is one, else against the
# temporary tags (no changes: this proves the tooling works).
last=$(git tag -l 'v[0-9]*' --sort=-v:refname | head -1)
if [ -n "$last" ]; then
	echo "-- [$(( $(date +%s) - start ))s] API compatibility against $last"
	bash .ci/apicompat.sh -tools "$TMP/bin" "$last" || echo "(incompatible changes since $last: the next release needs the version named above)"
else
	echo "-- [$(( $(date +%s) - start ))s] API compatibility against $V (HEAD)"
	bash .ci/apicompat.sh -repo "$TMP/repo" -tools "$TMP/bin" "$V"
fi
echo "-- [$(( $(date +%s) - start ))s] release check done in $(( $(date +%s) - start ))s"

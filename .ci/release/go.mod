// Release tooling (mkproxy, apicompat) that .ci/release.sh runs. Its own
// module, outside the workspace in go.work, so that its dependencies
// (golang.org/x/mod, golang.org/x/exp/apidiff, golang.org/x/tools) never
// enter the library modules' graphs. Build it with GOWORK=off.
module agentwire.example/ci-release

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require golang.org/x/sync v0.24.0 // indirect

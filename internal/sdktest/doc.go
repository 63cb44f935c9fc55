// Package sdktest holds acceptance tests that feed the protocols emitters'
// output to the official Go SDKs (github.com/anthropics/anthropic-sdk-go and
// github.com/openai/openai-go/v3) through an HTTP test server and check what
// the SDKs accumulate. It lives in the root module so that the protocols
// module's go.mod does not depend on the SDKs. It has no non-test code.
package sdktest

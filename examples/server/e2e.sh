#!/usr/bin/env bash
# End-to-end check with the real Claude Code and Codex CLIs (opt-in; not
# part of the test suite). Loopback only: the CLIs are installed from npm
# into a scratch directory, the server runs on 127.0.0.1 on the embedded
# scripted agent, and each CLI runs one tool-calling turn
# non-interactively. The check: the model's tool call reached the CLI, the
# CLI ran the tool (the server saw the tool result come back) and the final
# answer arrived.
#
#   examples/server/e2e.sh            # from the repository root
#   E2E_DIR=/tmp/e2e PORT=18080 examples/server/e2e.sh
#
# With E2E_MODEL_DIR=DIR (a Hugging Face Qwen3 model directory: config.json,
# tokenizer.json, tokenizer_config.json) it runs the CLIs a second time on
# the real-engine path: the model's chat template and tokenizer, the vLLM
# adapter, and the scripted agent behind vLLM's protocol (-upstream
# scripted) as the engine.
#
# Needs go, node (>= 18) and npm.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${E2E_DIR:-$(mktemp -d /tmp/agentwire-e2e.XXXXXX)}
PORT=${PORT:-18080}
KEY=e2e-dummy-key
BASE=http://127.0.0.1:$PORT
mkdir -p "$WORK"
echo "scratch directory: $WORK"

# The CLIs (versions may be pinned with CLAUDE_CODE_VERSION / CODEX_VERSION).
if [ ! -x "$WORK/npm/node_modules/.bin/claude" ] || [ ! -x "$WORK/npm/node_modules/.bin/codex" ]; then
	npm install --prefix "$WORK/npm" --no-audit --no-fund --loglevel=error \
		"@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION:-latest}" "@openai/codex@${CODEX_VERSION:-latest}"
fi
CLAUDE=$WORK/npm/node_modules/.bin/claude
CODEX=$WORK/npm/node_modules/.bin/codex
echo "claude $("$CLAUDE" --version 2>/dev/null || true); codex $("$CODEX" --version 2>/dev/null || true)"

# The server.
(cd "$ROOT" && go build -o "$WORK/server" ./examples/server)
SERVER=
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null || true' EXIT
start_server() { # args: extra server flags
	[ -n "$SERVER" ] && { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; }
	(cd "$ROOT" && exec "$WORK/server" -addr "127.0.0.1:$PORT" -api-key "$KEY" -token-delay 1ms -log-json "$@" 2>>"$WORK/server.log") &
	SERVER=$!
	for _ in $(seq 100); do curl -fs "$BASE/health" >/dev/null 2>&1 && break; sleep 0.1; done
	curl -fs "$BASE/health" >/dev/null
}

# No telemetry, error reporting or update checks: nothing leaves loopback.
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 DISABLE_BUG_COMMAND=1 \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1 \
	DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1
PROJECT=$WORK/project
mkdir -p "$PROJECT"
fail=0

run_clis() { # arg: label
	# ---- Claude Code: Anthropic Messages ----
	echo "== Claude Code ($1)"
	mkdir -p "$WORK/home-claude"
	(cd "$PROJECT" && HOME="$WORK/home-claude" ANTHROPIC_BASE_URL="$BASE" ANTHROPIC_API_KEY="$KEY" \
		ANTHROPIC_MODEL=agent ANTHROPIC_SMALL_FAST_MODEL=agent \
		timeout 180 "$CLAUDE" -p "Say hello using the shell." --allowedTools "Bash" --output-format json \
		>"$WORK/claude-$1.out" 2>"$WORK/claude-$1.err") || echo "claude exited with $?"
	cat "$WORK/claude-$1.out"; echo
	if grep -q 'Done. The tool returned' "$WORK/claude-$1.out" && grep -q 'hello' "$WORK/claude-$1.out"; then
		echo "Claude Code ($1): PASS (tool ran, answer arrived)"
	else
		echo "Claude Code ($1): FAIL (see $WORK/claude-$1.out, $WORK/claude-$1.err, $WORK/server.log)"; fail=1
	fi

	# ---- Codex: OpenAI Responses ----
	echo "== Codex ($1)"
	mkdir -p "$WORK/codex-home"
	cat >"$WORK/codex-home/config.toml" <<-TOML
	model = "agent"
	model_provider = "agentwire"
	check_for_update_on_startup = false

	[model_providers.agentwire]
	name = "agentwire"
	base_url = "$BASE/v1"
	env_key = "AGENTWIRE_API_KEY"
	wire_api = "responses"

	[analytics]
	enabled = false
	TOML
	(cd "$PROJECT" && CODEX_HOME="$WORK/codex-home" AGENTWIRE_API_KEY="$KEY" \
		timeout 180 "$CODEX" exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
		"Say hello using the shell." >"$WORK/codex-$1.out" 2>"$WORK/codex-$1.err") || echo "codex exited with $?"
	cat "$WORK/codex-$1.out"; tail -20 "$WORK/codex-$1.err"
	if grep -q 'Done. The tool returned' "$WORK/codex-$1.out" && grep -q 'hello' "$WORK/codex-$1.out"; then
		echo "Codex ($1): PASS (tool ran, answer arrived)"
	else
		echo "Codex ($1): FAIL (see $WORK/codex-$1.out, $WORK/codex-$1.err, $WORK/server.log)"; fail=1
	fi

}

start_server
run_clis embedded
if [ -n "${E2E_MODEL_DIR:-}" ]; then
	start_server -upstream scripted -model-dir "$E2E_MODEL_DIR" -max-model-len 262144
	run_clis model-dir
fi

echo "== server requests"
grep -o '"route":"[a-z_]*","status":[0-9]*' "$WORK/server.log" | sort | uniq -c
exit $fail

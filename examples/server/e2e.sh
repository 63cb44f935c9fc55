#!/usr/bin/env bash
# End-to-end check with real agent CLIs (opt-in; not part of the test
# suite): Claude Code, Codex, OpenCode, Qwen Code and pi, each on every API
# it speaks. Loopback only: the CLIs are installed from npm into a scratch
# directory and run with their own homes there, telemetry and update checks
# off; the server runs on 127.0.0.1 on the embedded scripted agent, behind a
# small recorder (node) that saves every request body the CLIs send.
#
# Each run is one tool-calling turn, non-interactively: the scripted agent
# calls the client's shell tool, the client runs it and sends the result
# back, the agent answers "Done. The tool returned: …". Where the client
# can continue a session, a second user turn follows in the same session.
# A run passes when
#   - the final answer arrived (the CLI printed "Done. The tool returned");
#   - the client ran the tool: a recorded request carries a tool result;
#   - turn 2 only: its last request carries turn 1 (its prompt, and the
#     tool results of both turns);
#   - the model's reasoning never came back as visible text (reasoning the
#     client was shown must come back as reasoning, or not at all).
# The table at the end says per client and API whether the reasoning came
# back as reasoning ("kept") or not at all ("-").
#
#   examples/server/e2e.sh                       # from the repository root
#   E2E_CLIENTS="opencode pi" E2E_DIR=/tmp/e2e PORT=18080 examples/server/e2e.sh
#
# E2E_CLIENTS selects clients (default: claude codex opencode qwen pi);
# CLAUDE_CODE_VERSION, CODEX_VERSION, OPENCODE_VERSION, QWEN_CODE_VERSION and
# PI_VERSION pin the npm versions (default: latest). E2E_SERVER_FLAGS adds
# server flags (e.g. -strict); E2E_SERVER runs a prebuilt server binary
# instead of building this checkout's (to compare two versions). The
# recorded bodies are in $E2E_DIR/requests (NNNN-route.json, headers
# without credentials in NNNN-route.headers.json).
#
# With E2E_MODEL_DIR=DIR (a Hugging Face Qwen3 model directory: config.json,
# tokenizer.json, tokenizer_config.json) every client runs a second time on
# the real-engine path: the model's chat template and tokenizer, the vLLM
# adapter, and the scripted agent behind vLLM's protocol (-upstream
# scripted) as the engine; a vision model directory (Qwen3-VL) also reads
# the PNG there, through vLLM's token-in endpoint.
#
# Then Claude Code and Codex read a PNG (run_images): with their image tool
# (Read, view_image), the image returning inside the tool result, and Codex
# also with the image attached to the user turn (exec -i); the scripted
# agent acknowledges it ("I received 1 image: PNG 24×16 (96 bytes).").
#
# Needs go, node (>= 18) and npm. Every CLI run is bounded by `timeout`.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${E2E_DIR:-$(mktemp -d /tmp/agentwire-e2e.XXXXXX)}
PORT=${PORT:-18080}
REC_PORT=$((PORT + 1))
KEY=e2e-dummy-key
BASE=http://127.0.0.1:$REC_PORT # the clients talk to the recorder
CLIENTS=${E2E_CLIENTS:-claude codex opencode qwen pi}
TIMEOUT=${E2E_TIMEOUT:-180}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
echo "scratch directory: $WORK"
wants() { [[ " $CLIENTS " == *" $1 "* ]]; }

# ---- the CLIs ----
pkgs=()
wants claude && pkgs+=("@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION:-latest}")
wants codex && pkgs+=("@openai/codex@${CODEX_VERSION:-latest}")
wants opencode && pkgs+=("opencode-ai@${OPENCODE_VERSION:-latest}")
wants qwen && pkgs+=("@qwen-code/qwen-code@${QWEN_CODE_VERSION:-latest}")
wants pi && pkgs+=("@mariozechner/pi-coding-agent@${PI_VERSION:-latest}")
BIN=$WORK/npm/node_modules/.bin
need=0
for c in $CLIENTS; do
	[ -x "$BIN/$c" ] || need=1
done
if [ "$need" = 1 ] && [ ${#pkgs[@]} -gt 0 ]; then
	npm install --prefix "$WORK/npm" --no-audit --no-fund --loglevel=error "${pkgs[@]}"
fi
for c in $CLIENTS; do
	echo "$c $(timeout 60 env HOME="$WORK/home-$c" "$BIN/$c" --version 2>&1 | tail -1 || true)"
done

# ---- the server and the recorder ----
SERVER_BIN=${E2E_SERVER:-$WORK/server}
[ -n "${E2E_SERVER:-}" ] || (cd "$ROOT" && go build -o "$WORK/server" ./examples/server)
cat >"$WORK/recorder.js" <<-'JS'
	// Forwards 127.0.0.1:LISTEN to 127.0.0.1:TARGET and saves every POST body
	// (and its headers, without credentials) as DIR/NNNN-route.json.
	const http = require('http'), fs = require('fs'), path = require('path');
	const [listen, target, dir] = process.argv.slice(2);
	fs.mkdirSync(dir, { recursive: true });
	let n = fs.readdirSync(dir).filter((f) => f.endsWith('.headers.json')).length;
	http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (req.method === 'POST') {
				const name = String(++n).padStart(4, '0') + '-' + req.url.split('?')[0].replace(/[^a-z0-9]+/gi, '_').replace(/^_+|_+$/g, '');
				const headers = { ...req.headers };
				delete headers.authorization;
				delete headers['x-api-key'];
				fs.writeFileSync(path.join(dir, name + '.json'), body);
				fs.writeFileSync(path.join(dir, name + '.headers.json'), JSON.stringify(headers, null, 1));
			}
			const up = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (r) => {
				res.writeHead(r.statusCode, r.headers);
				r.pipe(res);
			});
			up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
			up.end(body);
		});
	}).listen(listen, '127.0.0.1');
JS
cat >"$WORK/inspect.js" <<-'JS'
	// inspect.js FILE PROMPT: what a recorded request carries back, on any of
	// the three APIs (by the route in FILE's name): whether PROMPT is among its
	// user texts, how many tool results it has, and how the scripted agent's
	// reasoning (REASONING below) came back: as reasoning, or as visible text.
	const fs = require('fs');
	const [file, prompt] = process.argv.slice(2);
	const REASONING = /The user wants me to act|The tool finished/;
	const b = JSON.parse(fs.readFileSync(file, 'utf8'));
	const text = (c) => c == null ? '' : typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => typeof p === 'string' ? p : (p.text ?? '')).join('\n') : '';
	const s = { prompt: 0, tool_results: 0, reasoning_kept: 0, reasoning_as_text: 0 };
	const user = (t) => { if (prompt && t.includes(prompt)) s.prompt = 1; };
	const reasoning = (t) => { if (REASONING.test(t)) s.reasoning_kept++; };
	const visible = (t) => { if (REASONING.test(t)) s.reasoning_as_text++; };
	if (file.endsWith('v1_responses.json')) {
		const items = typeof b.input === 'string' ? [{ role: 'user', content: b.input }] : b.input || [];
		for (const it of items) {
			const t = it.type || 'message';
			if (t === 'message' && it.role === 'user') user(text(it.content));
			else if (t === 'message' && it.role === 'assistant') visible(text(it.content));
			else if (t === 'function_call_output' || t === 'custom_tool_call_output') s.tool_results++;
			else if (t === 'reasoning') {
				let r = text(it.summary) + text(it.content);
				if (it.encrypted_content) r += Buffer.from(it.encrypted_content, 'base64').toString();
				reasoning(r);
			}
		}
	} else if (file.endsWith('v1_messages.json')) {
		for (const m of b.messages || []) {
			const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content || [];
			for (const p of blocks) {
				if (m.role === 'user' && p.type === 'text') user(p.text);
				if (p.type === 'tool_result') s.tool_results++;
				if (m.role === 'assistant' && p.type === 'thinking') reasoning(p.thinking);
				if (m.role === 'assistant' && p.type === 'text') visible(p.text);
			}
		}
	} else {
		for (const m of b.messages || []) {
			if (m.role === 'user') user(text(m.content));
			if (m.role === 'tool') s.tool_results++;
			if (m.role === 'assistant') {
				visible(text(m.content));
				reasoning(text(m.reasoning_content) + text(m.reasoning));
			}
		}
	}
	// images: the image parts anywhere in the request (user turns and tool
	// results alike): Anthropic image blocks, input_image, image_url.
	s.images = (JSON.stringify(b).match(/"type":"(image|input_image|image_url)"/g) || []).length;
	console.log(Object.entries(s).map(([k, v]) => k + '=' + v).join(' '));
JS
SERVER= RECORDER=
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null; [ -n "$RECORDER" ] && kill $RECORDER 2>/dev/null; true' EXIT
node "$WORK/recorder.js" "$REC_PORT" "$PORT" "$WORK/requests" 2>>"$WORK/recorder.log" &
RECORDER=$!
start_server() { # args: extra server flags
	[ -n "$SERVER" ] && { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; }
	# shellcheck disable=SC2086 # E2E_SERVER_FLAGS is a list of flags
	(cd "$ROOT" && exec "$SERVER_BIN" -addr "127.0.0.1:$PORT" -api-key "$KEY" -token-delay 1ms -log-json ${E2E_SERVER_FLAGS:-} "$@" 2>>"$WORK/server.log") &
	SERVER=$!
	for _ in $(seq 100); do curl -fs "$BASE/health" >/dev/null 2>&1 && break; sleep 0.1; done
	curl -fs "$BASE/health" >/dev/null
}

# No telemetry, error reporting or update checks: nothing leaves loopback.
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 DISABLE_BUG_COMMAND=1 \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1 \
	DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 AGENTWIRE_API_KEY=$KEY
PROJECT=$WORK/project
mkdir -p "$PROJECT"
PROMPT1="Say hello using the shell."
PROMPT2="Now say hello again using the shell."
fail=0
summary=()

# ---- per-client configuration (written once; every home is under $WORK) ----
OC_HOME=$WORK/home-opencode
mkdir -p "$OC_HOME/.config/opencode"
cat >"$OC_HOME/.config/opencode/opencode.json" <<-JSON
	{
	  "\$schema": "https://opencode.ai/config.json",
	  "autoupdate": false,
	  "share": "disabled",
	  "permission": {"bash": "allow", "edit": "allow", "webfetch": "deny"},
	  "provider": {
	    "aw-chat": {"npm": "@ai-sdk/openai-compatible", "name": "agentwire chat",
	      "options": {"baseURL": "$BASE/v1", "apiKey": "{env:AGENTWIRE_API_KEY}"}, "models": {"agent": {"name": "agent"}}},
	    "aw-responses": {"npm": "@ai-sdk/openai", "name": "agentwire responses",
	      "options": {"baseURL": "$BASE/v1", "apiKey": "{env:AGENTWIRE_API_KEY}"}, "models": {"agent": {"name": "agent"}}},
	    "aw-anthropic": {"npm": "@ai-sdk/anthropic", "name": "agentwire anthropic",
	      "options": {"baseURL": "$BASE/v1", "apiKey": "{env:AGENTWIRE_API_KEY}"}, "models": {"agent": {"name": "agent"}}}
	  }
	}
JSON
QWEN_HOME=$WORK/home-qwen
mkdir -p "$QWEN_HOME/.qwen"
cat >"$QWEN_HOME/.qwen/settings.json" <<-JSON
	{
	  "general": {"disableAutoUpdate": true, "enableAutoUpdate": false, "disableUpdateNag": true},
	  "privacy": {"usageStatisticsEnabled": false},
	  "telemetry": {"enabled": false},
	  "security": {"auth": {"selectedType": "openai"}},
	  "model": {"name": "agent"},
	  "modelProviders": {
	    "openai": [{"id": "agent", "name": "agent", "envKey": "AGENTWIRE_API_KEY", "baseUrl": "$BASE/v1"}],
	    "openai-responses": [{"id": "agent", "name": "agent", "envKey": "AGENTWIRE_API_KEY", "baseUrl": "$BASE/v1"}],
	    "anthropic": [{"id": "agent", "name": "agent", "envKey": "AGENTWIRE_API_KEY", "baseUrl": "$BASE"}]
	  }
	}
JSON
PI_HOME=$WORK/home-pi
mkdir -p "$PI_HOME/agent"
echo '{"enableInstallTelemetry": false}' >"$PI_HOME/agent/settings.json"
cat >"$PI_HOME/agent/models.json" <<-JSON
	{
	  "providers": {
	    "aw-chat": {"baseUrl": "$BASE/v1", "api": "openai-completions", "apiKey": "AGENTWIRE_API_KEY", "models": [{"id": "agent", "reasoning": true}]},
	    "aw-responses": {"baseUrl": "$BASE/v1", "api": "openai-responses", "apiKey": "AGENTWIRE_API_KEY", "models": [{"id": "agent", "reasoning": true}]},
	    "aw-anthropic": {"baseUrl": "$BASE", "api": "anthropic-messages", "apiKey": "AGENTWIRE_API_KEY", "models": [{"id": "agent", "reasoning": true}]}
	  }
	}
JSON
CODEX_HOME_DIR=$WORK/home-codex
mkdir -p "$CODEX_HOME_DIR"
cat >"$CODEX_HOME_DIR/config.toml" <<-TOML
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

# cli CLIENT API TURN: runs one turn of CLIENT on API (turn 2 continues the
# session of turn 1) with its output in $out.
cli() {
	local client=$1 api=$2 turn=$3 prompt=$PROMPT1
	[ "$turn" = 2 ] && prompt=$PROMPT2
	case $client in
	claude) # Anthropic Messages; -c continues the directory's last conversation
		local cont=()
		[ "$turn" = 2 ] && cont=(-c)
		HOME="$WORK/home-claude" ANTHROPIC_BASE_URL="$BASE" ANTHROPIC_API_KEY="$KEY" \
			ANTHROPIC_MODEL=agent ANTHROPIC_SMALL_FAST_MODEL=agent \
			timeout "$TIMEOUT" "$BIN/claude" -p "${cont[@]}" "$prompt" --allowedTools "Bash" --output-format json ;;
	codex) # OpenAI Responses; exec resume --last continues
		local cmd=(exec)
		[ "$turn" = 2 ] && cmd=(exec resume --last)
		HOME="$WORK/home-codex" CODEX_HOME="$CODEX_HOME_DIR" \
			timeout "$TIMEOUT" "$BIN/codex" "${cmd[@]}" --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$prompt" ;;
	opencode) # provider aw-<api>; run -c continues the last session.
		# OpenCode installs its plugin package into its config directory in
		# the background: an unreachable offline registry keeps that from
		# leaving loopback (it logs the failed install and carries on).
		local cont=()
		[ "$turn" = 2 ] && cont=(-c)
		HOME="$OC_HOME" XDG_CONFIG_HOME="$OC_HOME/.config" XDG_DATA_HOME="$OC_HOME/.local/share" \
			XDG_CACHE_HOME="$OC_HOME/.cache" XDG_STATE_HOME="$OC_HOME/.local/state" \
			OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_SHARE=1 \
			OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_CLAUDE_CODE=1 \
			OPENCODE_PURE=1 npm_config_registry=http://127.0.0.1:9/ npm_config_offline=true \
			timeout "$TIMEOUT" "$BIN/opencode" run -m "aw-$api/agent" "${cont[@]}" "$prompt" ;;
	qwen) # --auth-type openai|openai-responses|anthropic; -c continues.
		# Qwen Code declares sub-agent tools ahead of its shell tool: the
		# run keeps to the shell tool (no agents spawned), and
		# --max-tool-calls / --max-wall-time bound it.
		local auth=$api cont=()
		[ "$api" = chat ] && auth=openai
		[ "$api" = responses ] && auth=openai-responses
		[ "$turn" = 2 ] && cont=(-c)
		HOME="$QWEN_HOME" QWEN_USAGE_STATISTICS_ENABLED=false QWEN_CODE_SUPPRESS_YOLO_WARNING=1 \
			timeout "$TIMEOUT" "$BIN/qwen" --auth-type "$auth" -m agent --approval-mode yolo \
			--core-tools run_shell_command --exclude-tools agent get_goal list_agents \
			--max-tool-calls 6 --max-wall-time "$((TIMEOUT - 10))" "${cont[@]}" -p "$prompt" ;;
	pi) # provider aw-<api>; -c continues the most recent session.
		local cont=()
		[ "$turn" = 2 ] && cont=(-c)
		HOME="$PI_HOME" PI_CODING_AGENT_DIR="$PI_HOME/agent" PI_OFFLINE=1 PI_TELEMETRY=0 PI_SKIP_VERSION_CHECK=1 \
			timeout "$TIMEOUT" "$BIN/pi" --model "aw-$api/agent" "${cont[@]}" -p "$prompt" ;;
	esac
}

# apis CLIENT: the APIs CLIENT speaks.
apis() {
	case $1 in
	claude) echo anthropic ;;
	codex) echo responses ;;
	*) echo chat responses anthropic ;;
	esac
}

# fresh CLIENT: forgets CLIENT's sessions, so that turn 1 starts a new one.
fresh() {
	case $1 in
	opencode) rm -rf "$OC_HOME/.local/share/opencode/opencode.db"* "$OC_HOME/.local/share/opencode/storage" ;;
	qwen) rm -rf "$QWEN_HOME/.qwen/projects" "$QWEN_HOME/.qwen/tmp" ;;
	pi) rm -rf "$PI_HOME/agent/sessions" ;;
	claude) rm -rf "$WORK/home-claude/.claude/projects" ;;
	codex) rm -rf "$CODEX_HOME_DIR/sessions" ;;
	esac
}

run_clients() { # arg: label
	local label=$1 client api turn
	for client in $CLIENTS; do
		for api in $(apis "$client"); do
			fresh "$client"
			local kept=- row
			row=$(printf '%-9s %-10s %-10s' "$client" "$api" "$label")
			for turn in 1 2; do
				local name="$client-$api-$label-t$turn"
				out=$WORK/$name.out
				local before
				before=$(ls "$WORK/requests" | grep -c '\.headers\.json$' || true)
				echo "== $client $api turn $turn ($label)"
				(cd "$PROJECT" && cli "$client" "$api" "$turn" >"$out" 2>"$WORK/$name.err") || echo "$client exited with $?"
				tail -5 "$out"
				local new last res=""
				new=$(ls "$WORK/requests" | grep '\.json$' | grep -v '\.headers\.json$' | sort | tail -n +"$((before + 1))")
				last=$(echo "$new" | tail -1)
				local why=()
				grep -q 'Done. The tool returned' "$out" || why+=("no final answer")
				if [ -z "$last" ]; then
					why+=("no request")
				else
					local f ran=0
					for f in $new; do
						node "$WORK/inspect.js" "$WORK/requests/$f" | grep -qv 'tool_results=0' && ran=1
					done
					[ "$ran" = 1 ] || why+=("no tool result sent back")
					res=$(node "$WORK/inspect.js" "$WORK/requests/$last" "$PROMPT1")
					[[ $res == *"reasoning_as_text=0"* ]] || { why+=("reasoning sent back as text"); kept="as text"; }
					if [ "$turn" = 2 ]; then
						[[ $res == *"prompt=1"* ]] || why+=("turn 1 missing")
						[[ $res =~ tool_results=([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 2 ] || why+=("turn 1's tool result missing")
						[[ $res =~ reasoning_kept=([1-9]) ]] && [ "$kept" = - ] && kept=kept
					fi
				fi
				if [ ${#why[@]} -eq 0 ]; then
					echo "$client $api turn $turn ($label): PASS ($res; last request $last)"
					row+=" turn $turn PASS"
				else
					echo "$client $api turn $turn ($label): FAIL: ${why[*]} (see $out, $WORK/$name.err, $WORK/requests/$last, $WORK/server.log)"
					row+=" turn $turn FAIL"
					fail=1
				fi
			done
			summary+=("$row  reasoning back: $kept")
		done
	done
}

# run_images: Claude Code and Codex read a PNG with their own image tool
# (Read, view_image: the image comes back inside the tool result), and Codex
# attaches one to the user turn (exec -i); the scripted agent answers
# "I received 1 image: PNG 24×16 (96 bytes)." A run passes when that answer
# arrived and a recorded request carried the image.
IMAGE=$PROJECT/screenshot.png
echo 'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAAAAAApT+BJAAAAJ0lEQVR4nGNg4BKR0zCycQuISsmraOqZtmDVln0nLt15xjAqMRASAP59rIFLevlGAAAAAElFTkSuQmCC' | base64 -d >"$IMAGE"
run_images() {
	local label=$1 client how
	for client in claude codex; do
		wants "$client" || continue
		for how in tool attach; do
			[ "$client/$how" = claude/attach ] && continue
			fresh "$client"
			local name="$client-image-$how-$label" before
			out=$WORK/$name.out
			before=$(ls "$WORK/requests" | grep -c '\.headers\.json$' || true)
			echo "== $client image ($how, $label)"
			case $client/$how in
			claude/tool)
				(cd "$PROJECT" && HOME="$WORK/home-claude" ANTHROPIC_BASE_URL="$BASE" ANTHROPIC_API_KEY="$KEY" \
					ANTHROPIC_MODEL=agent ANTHROPIC_SMALL_FAST_MODEL=agent \
					timeout "$TIMEOUT" "$BIN/claude" -p "What is in $IMAGE?" --allowedTools "Read" --output-format json \
					>"$out" 2>"$WORK/$name.err") || echo "claude exited with $?" ;;
			codex/tool)
				(cd "$PROJECT" && HOME="$WORK/home-codex" CODEX_HOME="$CODEX_HOME_DIR" \
					timeout "$TIMEOUT" "$BIN/codex" exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
					"What is in $IMAGE?" >"$out" 2>"$WORK/$name.err") || echo "codex exited with $?" ;;
			codex/attach)
				(cd "$PROJECT" && HOME="$WORK/home-codex" CODEX_HOME="$CODEX_HOME_DIR" \
					timeout "$TIMEOUT" "$BIN/codex" exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
					"Describe this screenshot." -i "$IMAGE" >"$out" 2>"$WORK/$name.err") || echo "codex exited with $?" ;;
			esac
			tail -3 "$out"
			local new f images=0 why=()
			new=$(ls "$WORK/requests" | grep '\.json$' | grep -v '\.headers\.json$' | sort | tail -n +"$((before + 1))")
			for f in $new; do
				[[ $(node "$WORK/inspect.js" "$WORK/requests/$f") =~ images=([1-9]) ]] && images=1
			done
			grep -q 'I received 1 image' "$out" || why+=("no acknowledgement of the image")
			[ "$images" = 1 ] || why+=("no request carried an image")
			if [ ${#why[@]} -eq 0 ]; then
				echo "$client image ($how, $label): PASS"
				summary+=("$(printf '%-9s %-10s %-10s' "$client" "image/$how" "$label") PASS")
			else
				echo "$client image ($how, $label): FAIL: ${why[*]} (see $out, $WORK/$name.err, $WORK/server.log)"
				summary+=("$(printf '%-9s %-10s %-10s' "$client" "image/$how" "$label") FAIL")
				fail=1
			fi
		done
	done
}

start_server
run_clients embedded
run_images embedded
if [ -n "${E2E_MODEL_DIR:-}" ]; then
	start_server -upstream scripted -model-dir "$E2E_MODEL_DIR" -max-model-len 262144
	run_clients model-dir
	# A vision model directory (config.json with a vision_config, a chat
	# template that writes image placeholders: Qwen3-VL's) also reads the
	# PNG, through vLLM's token-in endpoint (/inference/v1/generate).
	grep -q '"vision_config"' "$E2E_MODEL_DIR/config.json" && run_images model-dir
fi

echo "== results (reasoning back: how turn 2's request carried the reasoning of turn 1 — kept as reasoning, - not at all, as text)"
printf '%s\n' "${summary[@]}"
echo "== server requests"
grep -o '"route":"[a-z_]*","status":[0-9]*' "$WORK/server.log" | sort | uniq -c
exit $fail

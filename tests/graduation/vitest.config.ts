// npm run test:graduation：毕业练习的证明（tests/graduation/*.proof.ts）。每个证明都要真的起一个 Node 24 子进程、把文件装进
// pi-coding-agent 1.6.0 跑一遍（要先装 fidelity/ 里的 Pi，第一次跑时检查自己会装），一次两三秒，所以不进 npm test，
// 由 .ci/run 单独跑、并计入最后一行。同时最多两个证明在跑（这台机器只有两个核）。
// 上限只防卡死（tooling/hang-guard.ts 的五分钟）；钩子给两倍，因为第一次跑时它要装 Pi 和钉死的 Node 24。
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { HANG_GUARD_MS } from "../../tooling/hang-guard.ts";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "..", ".."),
    include: ["tests/graduation/**/*.proof.ts"],
    setupFiles: ["tests/support/hang-guard-setup.ts"],
    testTimeout: HANG_GUARD_MS,
    hookTimeout: 2 * HANG_GUARD_MS,
    maxConcurrency: 2,
  },
});

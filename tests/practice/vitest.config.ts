// npm run test:practice：练习模式的证明（tests/practice/*.proof.ts）。每个证明都要真跑几遍 check（每次一个 vitest 子进程），
// 十二课下来要几分钟，所以不进 npm test，由 .ci/run 单独跑、并计入最后一行。同时最多两个证明在跑。
// 上限只防卡死（tooling/hang-guard.ts 的五分钟）：一个证明是一次 check，忙的机器上（负载 16）也只要半分钟。
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { HANG_GUARD_MS } from "../../tooling/hang-guard.ts";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "..", ".."),
    include: ["tests/practice/**/*.proof.ts"],
    setupFiles: ["tests/support/hang-guard-setup.ts"],
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    maxConcurrency: 2,
  },
});

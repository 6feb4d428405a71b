// npm run test:practice：练习模式的证明（tests/practice/*.proof.ts）。每个证明都要真跑几遍 check（每次一个 vitest 子进程），
// 十二课下来要几分钟，所以不进 npm test，由 .ci/run 单独跑、并计入最后一行。同时最多两个证明在跑。
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "..", ".."),
    include: ["tests/practice/**/*.proof.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    maxConcurrency: 2,
  },
});

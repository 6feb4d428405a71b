// npm run test:e2e：真浏览器里的端到端测试（Debian 的 chromium + playwright-core），和 npm test 分开跑，
// 课程自己的测试不需要浏览器。先 npm run site 构建站点。
// 上限只防卡死（tooling/hang-guard.ts 的五分钟，每个测试一样）：最重的几条（把站里每一页都打开一遍的，几十秒）在忙的机器上也远不到它。
// expect.poll 默认只等 1 秒，这里也放到防卡死的上限；playwright 自己的 30 秒（goto、click、waitFor……）由 e2e/browser.ts 的 open() 放宽。
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { HANG_GUARD_MS } from "../tooling/hang-guard.ts";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, ".."),
    include: ["site/e2e/**/*.e2e.ts"],
    setupFiles: ["tests/support/hang-guard-setup.ts"],
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    expect: { poll: { timeout: HANG_GUARD_MS } },
    fileParallelism: false,
  },
});

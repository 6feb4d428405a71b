// npm run test:e2e：真浏览器里的端到端测试（Debian 的 chromium + playwright-core），和 npm test 分开跑，
// 课程自己的测试不需要浏览器。先 npm run site 构建站点。
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, ".."),
    include: ["site/e2e/**/*.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

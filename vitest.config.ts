// npm test 的 vitest 配置。
// ① 每课的演示一次运行只跑一遍（tests/support/global-setup.ts），文档、演示场景、行为测试共用它的输出。
// ② vitest 在 n 核机器上默认只开 n−1 个 worker，2 核机器上测试文件就成了一个接一个跑。这里开 n+1 个：
//    慢的测试文件并排跑；等子进程的文件（如 tests/live/terminal.test.ts）占着一个 worker 时，另外 n 个照样把 CPU 用满。
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    maxWorkers: availableParallelism() + 1,
  },
});

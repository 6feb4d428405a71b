// npm run check 跑课程测试用的 vitest 配置：只跑它点名的测试文件，不跑 npm test 的全局准备（演示由 check 自己跑），
// 结果交给 scripts/practice/reporter.ts 逐条写出，worker-events.ts 记下每个测试何时开始、结束。测试本身和 npm test 跑的是同一批文件，一行不差。
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import EventsReporter from "./reporter.ts";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "..", ".."),
    include: ["tests/**/*.test.ts"],
    reporters: [new EventsReporter()],
    setupFiles: ["scripts/practice/worker-events.ts"],
    includeTaskLocation: true,
    testTimeout: 8_000,
    maxWorkers: Math.max(2, availableParallelism()),
  },
});

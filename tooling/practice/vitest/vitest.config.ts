// npm run check 跑课程测试用的 vitest 配置：只跑它点名的测试文件，不跑 npm test 的全局准备（演示由 check 自己跑），
// 结果交给 reporter.ts 逐条写出，worker-setup.ts 记下每个测试何时开始、结束。测试本身和 npm test 跑的是同一批文件，一行不差。
// isolate: false 和 npm test 一样（根目录 vitest.config.ts 的 ③ 说为什么安全，tests/support/setup.ts 照样查）：
// 一个 worker 里的测试文件共用已经导入的模块，不再每个文件重新导入一遍课的 code.ts、zod、fast-check，一次 check 的测试从约 6 秒降到约 2.5 秒。
// pool: "threads"：worker 是线程，不是子进程，起得快（两核机器上 s12 的测试那一段又少三到五成）；这些测试不碰 chdir、exit 这类线程里用不了的东西。
// 卡死时 check 照样整组杀掉（线程在 vitest 的进程里），开始、结束的事件照样同步写盘（worker-setup.ts）。
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import EventsReporter from "./reporter.ts";

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "..", "..", ".."),
    include: ["tests/**/*.test.ts"],
    reporters: [new EventsReporter()],
    setupFiles: ["tooling/practice/vitest/worker-setup.ts", "tests/support/setup.ts"],
    includeTaskLocation: true,
    testTimeout: 8_000,
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
    pool: "threads",
  },
});

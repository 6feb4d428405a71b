// npm test 的 vitest 配置。
// ① 每课的演示一次运行只跑一遍（tests/support/global-setup.ts），文档、演示场景、行为测试共用它的输出。
// ② vitest 在 n 核机器上默认只开 n−1 个 worker，2 核机器上测试文件就成了一个接一个跑。这里开 n+1 个：
//    慢的测试文件并排跑；等子进程的文件（如 tests/live/terminal.test.ts）占着一个 worker 时，另外 n 个照样把 CPU 用满。
// ③ isolate: false：一个 worker 里的测试文件一个接一个跑，共用已经导入的模块，不再每个文件重新导入一遍
//    课的 code.ts、zod、typescript、vitest 自己（整套测试的 CPU 少约四分之一）。这样做安全，是因为测试会改的模块状态只有一处，
//    而且查着：课的 DEMO_FILES（演示的 rm 工具会删它，runScenario 跑完放回去），tests/support/isolation.ts 在每个文件
//    跑完时查它，没放回去就让那个文件失败。spy 和 vi.setConfig 由 vitest 在每个文件之后还原。
//    别的模块状态都与先后无关：课里的 turnsInProgress 以 agent 的状态为键（每个测试自己造 agent），
//    tooling 里的缓存只存从文件算出来的结果。
//    打乱文件顺序（--sequence.shuffle）、全部挤进一个 worker（--maxWorkers=1）都跑过，结果一样（EVOLUTION.md §8）。
// ④ 测试里的 `import ts from "typescript"` 换成 require 载入的同一个 typescript（tests/support/typescript.ts 说为什么）。
// ⑤ 时间上限只防卡死：每个测试、每个钩子的上限都是 tooling/hang-guard.ts 的五分钟（vitest 默认的 5 秒、10 秒在忙的机器上
//    会把没毛病的测试判成失败），到点时的报错说明这是防卡死的上限（tests/support/hang-guard-message.ts）。测试文件不另设上限（tests/suite.test.ts 查）。
// ⑥ 进度：这里不设 reporters、不设 silent，终端上是 vitest 默认的 reporter，开跑第一秒就有计时和逐个文件的进度。
// ⑦ 两组测试（vitest 的 projects）：course 是课程本身（宪法、行为、文档、黄金轨迹、性质、练习和 live/ 的零件），`npm test` 只跑它；
//    reader 是网页阅读器的生成器（tests/site/），`npm run test:site` 跑它。拆开是为了 npm test 在安静的双核机器上回到 Node 24 15 秒、
//    Node 20 20 秒以内（EVOLUTION.md §8 有量出来的数）；reader 一条没少：.ci/run 单独跑它并计数，`npm run test:load`
//    在占满的机器上两组一起跑（npm test 再加 --project reader；不带 --project 的 `vitest run` 也是两组）。演示只有 course 要，globalSetup 只放在它那里。
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { HANG_GUARD_MS } from "./tooling/hang-guard.ts";

export default defineConfig({
  resolve: { alias: [{ find: /^typescript$/, replacement: fileURLToPath(new URL("tests/support/typescript.ts", import.meta.url)) }] },
  test: {
    setupFiles: ["tests/support/setup.ts"],
    maxWorkers: availableParallelism() + 1,
    isolate: false,
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    projects: [
      { extends: true, test: { name: "course", include: ["tests/**/*.test.ts"], exclude: [...configDefaults.exclude, "tests/site/**"], globalSetup: ["tests/support/global-setup.ts"] } },
      { extends: true, test: { name: "reader", include: ["tests/site/**/*.test.ts"], benchmark: { include: [] } } },
    ],
  },
});

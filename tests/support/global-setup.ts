// vitest 的 globalSetup（vitest.config.ts）：测试开始前把每课的演示一起跑一遍，输出交给测试文件（inject("demoRuns")）。
// 以前文档、演示场景、行为三个测试文件各自把 12 课的演示跑一遍；现在一次运行只跑 12 个子进程。
// `vitest bench` 用不到演示，不跑。
import type { TestProject } from "vitest/node";
import { type RunResult, runAllDemos } from "../../tooling/demos.ts";
import { ROOT } from "../../tooling/course.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** `s03_stream/code.ts` → `tsx s03_stream/code.ts` 打印的东西（或者它为什么失败）。 */
    demoRuns: Record<string, RunResult>;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  if (project.vitest.mode === "benchmark") return;
  project.provide("demoRuns", await runAllDemos(ROOT));
}

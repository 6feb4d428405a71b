// 测试文件里拿演示输出：globalSetup（tests/support/global-setup.ts）跑过的就直接用，没跑过（比如换了配置）就现跑一遍。
import { inject } from "vitest";
import { type RunResult, runAllDemos } from "../../tooling/demos.ts";
import { ROOT, lessonDir } from "../../tooling/course.ts";

let fallback: Promise<Record<string, RunResult>> | undefined;

/** 每课演示的结果，键是 `s03_stream/code.ts` 这样的路径。 */
export async function demoRuns(): Promise<Record<string, RunResult>> {
  const provided = inject("demoRuns") as Record<string, RunResult> | undefined;
  if (provided !== undefined) return provided;
  fallback ??= runAllDemos(ROOT);
  return fallback;
}

/** `tsx sNN_x/code.ts` 打印的东西；失败时抛错，带上退出码和 stderr。 */
export async function demoStdout(lesson: string): Promise<string> {
  const file = `${lessonDir(lesson)}/code.ts`;
  const run = (await demoRuns())[file];
  if (run === undefined) throw new Error(`no demo run for ${file}`);
  if (!run.ok) throw new Error(`npm run ${lesson} (tsx ${file}) failed: ${run.error}`);
  return run.stdout;
}

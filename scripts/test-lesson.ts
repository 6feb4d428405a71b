// npm run test:lesson -- s04：只跑一课的测试，不进练习模式，测的就是仓库里那一课的 code.ts。
// 跑的和 npm run check 的 ③④ 是同一批：tests/ 下用 forLessonsFrom 给这一课开的 describe（行为、坏输入、性质……），
// 加上这一课复现之前每一课的黄金轨迹（文件和 -t 的式子都取自 tooling/practice/course-tests.ts，只写在那里）。
// 后面的参数原样交给 vitest（比如 --reporter=verbose）。这一课 README 的文档检查另有 npm run docs:check -- s04。
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { LESSONS, ROOT } from "../tooling/course.ts";
import { courseTestFiles, lessonTestPattern } from "../tooling/practice/course-tests.ts";
import { parseLesson } from "../tooling/practice/lesson-arg.ts";
import { vitestCli } from "../tooling/practice/vitest/run.ts";

/**
 * vitest 的参数：只留这一课的测试，只加载可能有它们的文件。课号的写法和 npm run practice 一样（`s04`、`4`、`s04_tool_loop`），
 * 认不出来时是一句说明。
 */
export function lessonTestArgs(arg: string | undefined, extra: readonly string[] = []): string[] | string {
  const id = parseLesson(arg);
  if (id === undefined) return `${arg === undefined ? "要说是哪一课。" : `没有这一课：${arg}`}\n用法：npm run test:lesson -- s04 [给 vitest 的参数]\n已有的课：${LESSONS.join(" ")}`;
  const { behaviour, golden } = courseTestFiles();
  return ["run", "-t", lessonTestPattern(id), ...extra, ...behaviour, ...golden];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = lessonTestArgs(process.argv[2], process.argv.slice(3));
  if (typeof args === "string") {
    console.error(args);
    process.exit(2);
  }
  const run = spawnSync(process.execPath, [vitestCli(), ...args], { cwd: ROOT, stdio: "inherit" });
  process.exit(run.status ?? 1);
}

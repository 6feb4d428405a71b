// npm run check 的 ⑤：所有阶段都过了以后，跑学习者文件的 main()，和 README「试一下」的输出比（tooling/docs/try-it.ts 的 checkTryIt，
// 和文档检查同一个比法）。「试一下」里这一课的演示换成学习者的文件，别的课照旧。没对上时说成学习者的话：卡住了、跑到了还空着的地方、
// 没跑完（退出码和那一行错误），或者第几行和 README 不一样。
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { z } from "zod";
import { ROOT, lessonDir } from "../course.ts";
import { resolveCommand } from "../demos.ts";
import { contextFor, loadProject } from "../docs/context.ts";
import { checkTryIt } from "../docs/try-it.ts";
import { type ChildFailure, runLearnerCode } from "./child-process.ts";
import { type Finding, HANG_HINT, findTodo, todoLines } from "./explain.ts";

/** 演示和「试一下」对得上就是 undefined；对不上是报告里「第一个没过的」那一段。 */
export async function checkDemo(id: string, file: string, timeoutMs: number): Promise<Finding | undefined> {
  const dir = lessonDir(id);
  const scripts = z.object({ scripts: z.record(z.string(), z.string()) }).parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))).scripts;
  const failures = new Map<string, ChildFailure>();
  const run = async (command: string): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> => {
    const target = resolveCommand(command, scripts);
    if (typeof target === "string") return { ok: false, error: target };
    // 这一课的演示换成学习者的文件，别的课照旧
    const runs = target.file === `${dir}/code.ts` ? relative(ROOT, resolve(file)) : target.file;
    const { stdout, failure } = await runLearnerCode(runs, target.args, timeoutMs);
    if (failure === undefined) return { ok: true, stdout };
    failures.set(command, failure);
    return { ok: false, error: failure.kind === "timeout" ? "timeout" : `exit ${failure.code}` };
  };
  const project = await loadProject({ run });
  const lesson = project.lessons.find((l) => l.id === id);
  if (lesson === undefined) throw new Error(`no lesson ${id}`);
  const readme = readFileSync(lesson.readmePath, "utf8");
  const problems = await checkTryIt(id, readme, contextFor(project, lesson));
  if (problems.length === 0) return undefined;

  const [command, failure] = [...failures][0] ?? [];
  if (command !== undefined && failure !== undefined) {
    if (failure.kind === "timeout") return { title: `演示卡住了：\`${command}\` 跑了 ${failure.ms / 1000} 秒还没结束`, lines: [HANG_HINT] };
    const todo = findTodo(failure.stderr);
    if (todo !== undefined) return { title: `演示跑到了还空着的地方：\`${command}\``, lines: todoLines(todo) };
    const tail = failure.stderr.trim().split("\n").filter((l) => l.trim() !== "");
    const error = tail.find((l) => /^\w*Error\b/.test(l)) ?? tail.at(-1) ?? "";
    return { title: `演示没跑完：\`${command}\` 退出码 ${failure.code}`, lines: [error] };
  }
  const differs = /output differs at line (\d+): expected (.*), got (.*) \((.*), block at line \d+\)$/.exec(problems[0]);
  if (differs) {
    return {
      title: `演示输出和 README「试一下」不一样：\`${differs[4]}\` 的第 ${differs[1]} 行`,
      lines: [`期望：${quoted(differs[2])}`, `实际：${quoted(differs[3])}`],
    };
  }
  return { title: "演示输出和 README「试一下」对不上", lines: problems };
}

/** checkTryIt 报的 `"一行"` 换成报告里别处一样的「一行」（`(end of output)` 说成「（没有这一行）」）。 */
const quoted = (s: string): string => (s === "(end of output)" ? "（没有这一行）" : `「${s.replace(/^"|"$/g, "")}」`);

// 命令行上的课号（`s04`、`4`、`s04_tool_loop`）和练习文件放在哪：npm run practice、check、hint、test:lesson 和毕业检查共用。
import { join } from "node:path";
import { LESSONS, ROOT, lessonDir } from "../course.ts";

/** 练习文件放在哪个文件夹：默认仓库根下的 practice/（不进版本库）；LEARN_PI_PRACTICE_DIR 可以换一个。 */
export const PRACTICE_DIR_ENV = "LEARN_PI_PRACTICE_DIR";

/** 练习文件的根：practice/，或 LEARN_PI_PRACTICE_DIR 说的那个文件夹。 */
export const practiceRoot = (): string => process.env[PRACTICE_DIR_ENV] ?? join(ROOT, "practice");

/** 练习文件：practice/<课的文件夹>/code.ts。 */
export const practiceFile = (id: string): string => join(practiceRoot(), lessonDir(id), "code.ts");

/** `s04`、`4`、`04`、`s04_tool_loop` → `s04`；认不出来就是 undefined。 */
export function parseLesson(arg: string | undefined): string | undefined {
  const m = /^s?(\d{1,2})(?:_[a-z_]+)?$/.exec(arg ?? "");
  if (!m) return undefined;
  const id = `s${m[1].padStart(2, "0")}`;
  return LESSONS.includes(id) ? id : undefined;
}

/** 参数里的课号和开关；课号不对时打印一句清楚的话，以退出码 2 结束。 */
export function readArgs(command: string, flags: readonly string[]): { id: string; on: Set<string> } {
  const args = process.argv.slice(2);
  const on = new Set(args.filter((a) => a.startsWith("--")));
  const unknownFlags = [...on].filter((f) => !flags.includes(f));
  const positional = args.filter((a) => !a.startsWith("--"));
  const id = parseLesson(positional[0]);
  const usage = `用法：npm run ${command} -- s04${flags.length > 0 ? ` [${flags.join("] [")}]` : ""}`;
  if (unknownFlags.length > 0) fail(`不认识的选项：${unknownFlags.join(" ")}\n${usage}`);
  if (positional.length === 0) fail(`要说是哪一课。\n${usage}\n已有的课：${LESSONS.join(" ")}`);
  if (id === undefined || positional.length > 1) fail(`没有这一课：${positional.join(" ")}\n已有的课：${LESSONS.join(" ")}`);
  return { id: id as string, on };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

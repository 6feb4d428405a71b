// 学习者的毕业练习放在哪、怎么读写：练习模式的 practice/ 下面另开一个 graduation/（不进版本库；LEARN_PI_PRACTICE_DIR 同样能换地方）。
// 练习 1、2 是一个 .ts 文件，练习 3 是一个包的文件夹。旁边再放一份 tsconfig.json，编辑器就认得 Pi 的类型（装在 fidelity/node_modules 里）。

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { practiceRoot } from "../practice/lesson-arg.ts";
import { ROOT } from "../course.ts";
import type { Exercise } from "./exercises.ts";
import type { ExerciseFiles } from "./stub.ts";

/** practice/graduation/（或 LEARN_PI_PRACTICE_DIR 下的 graduation/）。 */
export const graduationDir = (): string => join(practiceRoot(), "graduation");

/** 学习者这个练习的文件（练习 3 是包的文件夹）。 */
export const learnerTarget = (ex: Exercise): string => join(graduationDir(), ex.target);

/** 报告里写的路径：仓库里的写相对路径，别处的照原样。 */
export const shownPath = (path: string): string => {
  const rel = relative(ROOT, path);
  return rel.startsWith("..") ? path : rel.split("\\").join("/");
};

/** 读一个练习的文件：单个文件是 { "": 内容 }，文件夹是相对路径 → 内容。不存在是 undefined。 */
export function readExerciseFiles(target: string): ExerciseFiles | undefined {
  if (!existsSync(target)) return undefined;
  if (statSync(target).isFile()) return { "": readFileSync(target, "utf8") };
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.name === "node_modules" ? [] : e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  return Object.fromEntries(walk(target).sort().map((f) => [relative(target, f).split("\\").join("/"), readFileSync(f, "utf8")]));
}

/** 写一个练习的文件（单个文件写到 target，文件夹写到 target 下面）。 */
export function writeExerciseFiles(target: string, files: Readonly<ExerciseFiles>): void {
  for (const [path, content] of Object.entries(files)) {
    const file = path === "" ? target : join(target, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** practice/graduation/tsconfig.json：让编辑器照课程的设置检查练习文件，Pi 和 TypeBox 的类型从 fidelity/node_modules 里找。 */
export function editorConfig(dir: string = graduationDir()): string {
  const up = relative(dir, ROOT).split("\\").join("/");
  const config = {
    extends: `${up}/tsconfig.json`,
    compilerOptions: { paths: { "*": [`${up}/fidelity/node_modules/*`] } },
    include: ["*.ts", "*/**/*.ts"],
    exclude: [],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

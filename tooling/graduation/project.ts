// 毕业练习跑在一个临时目录里：project/ 是工作目录（s12 演示的那几个文件，原样写到磁盘上），agent/ 是 Pi 的用户目录（空的），
// home/ 是 Pi 子进程的 HOME（空的）。练习 1 在项目外面放一个不该被读到的文件、在项目里放一个指到它的链接；
// 练习 3 在项目的 .pi/settings.json 里写上学习者的包，和 `pi install -l <包>` 写的一样，所以项目不被信任时 Pi 不装它。
// 真实 Pi 一侧（Node 24 子进程）和 mini Pi 一侧读的是同一份演示文件。

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Exercise, LINK_OUT, OUTSIDE_FILE, OUTSIDE_TEXT } from "./exercises.ts";

/** 一次检查的目录：工作目录、Pi 的用户目录，和交给 Pi 子进程的任务文件、结果文件。 */
export type GraduationDirs = { root: string; cwd: string; agentDir: string; job: string; result: string };

export const graduationDirs = (root: string): GraduationDirs => ({
  root,
  cwd: join(root, "project"),
  agentDir: join(root, "agent"),
  job: join(root, "job.json"),
  result: join(root, "result.json"),
});

const write = (path: string, content: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};

/** 项目的 .pi/settings.json：一个写着学习者的包的项目设置（本地路径）。 */
export const projectSettings = (packageDir: string): string => `${JSON.stringify({ packages: [packageDir] }, null, 2)}\n`;

/**
 * 写好一个练习的项目。files 是 s12 的 DEMO_FILES（路径 → 内容）；target 是学习者的文件或包的文件夹（绝对路径）。
 */
export function writeProject(dirs: GraduationDirs, ex: Exercise, files: Readonly<Record<string, string>>, target: string): void {
  mkdirSync(dirs.agentDir, { recursive: true });
  for (const [path, content] of Object.entries(files)) write(join(dirs.cwd, path), content);
  if (ex.n === 1) {
    write(join(dirs.root, OUTSIDE_FILE), `${OUTSIDE_TEXT}\n`);
    symlinkSync(join("..", OUTSIDE_FILE), join(dirs.cwd, LINK_OUT));
  }
  if (ex.n === 3) write(join(dirs.cwd, ".pi", "settings.json"), projectSettings(target));
}

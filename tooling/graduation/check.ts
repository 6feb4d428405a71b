// 一次毕业检查：写好临时项目，把学习者的扩展（或包）交给 Node 24 子进程里的真实 Pi 1.6.0 跑练习的对话（fidelity/graduate-side.ts），
// 同一段对话再交给完整的 mini Pi（s12）跑一遍；然后判定 Pi 做到了没有（verdict.ts），再解释两边的每一处不同（differences.ts）。
// 离线、确定：模型是照剧本说话的，项目是临时写的，跑完就删。

import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPiSide } from "../../fidelity/pi-process.ts";
import { ROOT } from "../course.ts";
import { explainAll, type RunDifferences } from "./differences.ts";
import type { Exercise } from "./exercises.ts";
import { demoFiles, runMiniGraduation } from "./mini.ts";
import { graduationDirs, writeProject } from "./project.ts";
import type { ManifestRead } from "./requirements.ts";
import type { GraduationJob, MiniRun, PiGraduation } from "./runs.ts";
import { type Requirement, verdict } from "./verdict.ts";

/** 一次检查的结果：两边跑出了什么、每条要求过没过、两边每一处不同的说法。 */
export type GraduationOutcome = {
  ex: Exercise;
  /** 学习者的文件或包的文件夹（绝对路径），和它在报告里的写法。 */
  target: string;
  shown: string;
  pi: PiGraduation;
  mini: MiniRun[];
  requirements: Requirement[];
  differences: RunDifferences[];
  ok: boolean;
};

/** 演示用的 rm（练习 2 的 Pi 一侧要它）。 */
export const RM_TOOL = join(ROOT, "graduation", "rm-tool.ts");

function readManifest(dir: string): ManifestRead {
  try {
    return { ok: true, pi: (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { pi?: unknown }).pi };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** 报告里的路径：学习者的文件写成 shown，临时目录写成「临时项目」。 */
const shownPaths = (target: string, shown: string, root: string) => (text: string): string =>
  text.split(target).join(shown).split(realpathSync(root)).join("（临时项目）").split(root).join("（临时项目）");

function runPi(node: string, job: GraduationJob, dirs: ReturnType<typeof graduationDirs>): PiGraduation {
  writeFileSync(dirs.job, JSON.stringify(job));
  const child = runPiSide(node, join("fidelity", "graduate-side.ts"), [dirs.job, dirs.result], dirs.root);
  if (existsSync(dirs.result)) return JSON.parse(readFileSync(dirs.result, "utf8")) as PiGraduation;
  const tail = child.stderr.trim().split("\n").slice(-3).join(" / ");
  return { node: "?", error: `Pi 一侧的进程没交回结果（退出码 ${child.status}）：${tail}` };
}

/** 检查一个练习：target 是学习者的文件（练习 3 是包的文件夹），shown 是它在报告里的写法，node 跑 Pi 一侧。 */
export async function runGraduation(ex: Exercise, target: string, shown: string, node: string): Promise<GraduationOutcome> {
  const dirs = graduationDirs(mkdtempSync(join(tmpdir(), "graduation-")));
  try {
    const demo = await demoFiles();
    writeProject(dirs, ex, demo, target);
    const pi = runPi(node, { exercise: ex.n, target, rmTool: RM_TOOL, cwd: dirs.cwd, agentDir: dirs.agentDir }, dirs);
    const mini = await runMiniGraduation(ex);
    if ("error" in pi) return { ex, target, shown, pi, mini, requirements: [], differences: [], ok: false };
    const say = shownPaths(target, shown, dirs.root);
    const requirements = verdict({ ex, runs: pi.runs, target, shown: say, demo, ...(ex.n === 3 ? { manifest: readManifest(target) } : {}) });
    // 判定看的是原样的路径（认得出哪条问题出在学习者的文件上）；交出去的结果换成给人看的写法
    const shownPi: PiGraduation = JSON.parse(say(JSON.stringify(pi))) as PiGraduation;
    const differences = "runs" in shownPi ? explainAll(ex, shownPi.runs, mini) : [];
    return { ex, target, shown, pi: shownPi, mini, requirements, differences, ok: requirements.every((r) => r.status === "pass") };
  } finally {
    rmSync(dirs.root, { recursive: true, force: true });
  }
}

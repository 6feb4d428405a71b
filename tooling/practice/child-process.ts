// 练习模式起的子进程：vitest（tooling/practice/vitest/run.ts）、学习者代码的演示（demo-check.ts）、在学习者的文件上重跑一个黄金场景
// （golden-step.ts）。学习者的代码可能卡死，所以每个子进程自成一组（detached），要停就按组杀，连它开的 worker 一起。
import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "../course.ts";

/**
 * 跑学习者代码的 tsx 子进程（演示、重跑一个黄金场景）的上限：它们平时一秒上下就跑完（连 tsx 启动），一分钟只有卡死才够得着，
 * 机器再忙也不会把一份对的练习报成「演示卡住了」。测试那边的 10 秒只在有测试在跑时才算（一个测试平时几十毫秒，见 run-checks.ts）。
 */
export const CHILD_GUARD_MS = 60_000;

/** 杀掉子进程和它开的所有进程（vitest 的 worker）：子进程自成一组（detached），按组杀。 */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** 子进程没跑成：退出码不是 0（带上 stderr），或者过了时限被整组杀掉。 */
export type ChildFailure = { kind: "exit"; stderr: string; code: number | null } | { kind: "timeout"; ms: number };

/** 在仓库根下跑 `tsx 文件`，和 npm run sNN 一样（不经 npm，没有横幅）；超时就整组杀掉。 */
export function runLearnerCode(file: string, args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<{ stdout: string; failure?: ChildFailure }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ["--import", "tsx", file, ...args], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) res({ stdout, failure: { kind: "timeout", ms: timeoutMs } });
      else if (code === 0) res({ stdout });
      else res({ stdout, failure: { kind: "exit", stderr, code } });
    });
  });
}

// 跑一课的演示（tsx sNN_x/code.ts）的唯一写法，文档检查的「试一下」、vitest 的 globalSetup 和 scripts/check-docs.ts 共用。
// 一次测试运行里每课的演示只跑一遍：tests/support/global-setup.ts 在测试开始前把所有课一起跑完，
// 结果经 vitest 的 provide/inject 交给要它的测试文件（tests/support/demo-runs.ts）。
// 用 `node --import zod --import tsx 文件`，不经 tsx 命令行：省掉 tsx 为了转发信号多起的那一层；zod 在 tsx 挂上钩子之前
// 由 Node 自己导入（和 `npm start` 一样），它的上百个文件不再一个个过 tsx 的钩子，Node 20 上每个演示少用约四分之一的 CPU。
// 课里 import 的 zod 就是这同一个模块，输出和 `tsx 文件` 逐字节相同（十二课都比过）。
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { findLessons } from "./course.ts";
import { HANG_GUARD_MS } from "./hang-guard.ts";

export type RunResult = { ok: true; stdout: string } | { ok: false; error: string };
/** 跑试一下代码块里的一行命令（照写着的样子，比如 `npm run s03`），回它的 stdout。 */
export type CommandRunner = (command: string) => Promise<RunResult>;

/** 限流：同时最多跑 `limit` 个（默认每个 CPU 一个，至少两个）。 */
export function limitConcurrency(limit = Math.max(2, availableParallelism())): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((res) => waiting.push(res));
    else active++;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * 在 `root` 下用 tsx（先载入 zod）跑 `file`（相对 root 的路径），离线、不带颜色；退出码 0 时交回 stdout。
 * `timeoutMs` 只防卡死（tooling/hang-guard.ts）：一次演示一秒上下就跑完，到那时还在跑的子进程就是卡住了，杀掉它并在错误里说清。
 */
export function runTsx(root: string, file: string, args: readonly string[] = [], timeoutMs = HANG_GUARD_MS): Promise<RunResult> {
  return new Promise<RunResult>((res) => {
    const child = spawn(process.execPath, ["--import", "zod", "--import", "tsx", file, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      res({ ok: false, error: e.message });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (hung) res({ ok: false, error: `still running after ${timeoutMs / 1000} s, killed by the hang guard (tooling/hang-guard.ts): it is stuck` });
      else if (code === 0) res({ ok: true, stdout });
      else res({ ok: false, error: `exit ${code ?? signal}: ${stderr.trim().split("\n").slice(0, 3).join(" / ")}` });
    });
  });
}

/** 每课的演示各跑一遍，并行（每个 CPU 一个）：`s03_stream/code.ts` → 它的结果。 */
export async function runAllDemos(root: string): Promise<Record<string, RunResult>> {
  const limit = limitConcurrency();
  const files = findLessons(root).map((l) => `${l.dir}/code.ts`);
  const results = await Promise.all(files.map((file) => limit(() => runTsx(root, file))));
  return Object.fromEntries(files.map((file, i) => [file, results[i] as RunResult]));
}

// ── 试一下的命令：npm run s03 / npm start / npx tsx … 解析成 tsx 要跑的文件 ───────────────────────
/**
 * 用 tsx 跑一课文件的脚本：`tsx <file> …`，或者预先载入里有 tsx 的 `node --import … <file> …`（`node --import zod --import tsx`：
 * zod 在 tsx 的钩子之前载入，见 tooling/bench/README.md 的「第二张」）。→ 文件和参数。
 */
function launchedFile(words: string[]): string[] | undefined {
  if (words[0] === "tsx") return words.slice(1);
  if (words[0] !== "node") return undefined;
  const imports: string[] = [];
  let i = 1;
  for (; words[i] === "--import" && words[i + 1] !== undefined; i += 2) imports.push(words[i + 1] as string);
  return imports.includes("tsx") ? words.slice(i) : undefined;
}

/** `npm run s03` / `npm start` / `npx tsx s03_stream/code.ts` → tsx 要跑的文件和参数，或者一句错误。 */
export function resolveCommand(command: string, scripts: Readonly<Record<string, string>>): { file: string; args: string[] } | string {
  const words = command.trim().split(/\s+/);
  let tsxArgs: string[];
  if (words[0] === "npm") {
    const dash = words.indexOf("--");
    const extra = dash === -1 ? [] : words.slice(dash + 1);
    const head = dash === -1 ? words : words.slice(0, dash);
    const name = head[1] === "start" ? "start" : head[1] === "run" || head[1] === "run-script" ? head[2] : undefined;
    if (name === undefined || head.length > (head[1] === "start" ? 2 : 3)) return `cannot read \`${command}\``;
    const script = scripts[name];
    if (script === undefined) return `npm script "${name}" is not in package.json`;
    const parts = launchedFile(script.trim().split(/\s+/));
    if (parts === undefined) return `npm script "${name}" is \`${script}\`, not \`tsx <file>\` or \`node --import tsx <file>\``;
    tsxArgs = [...parts, ...extra];
  } else if (words[0] === "npx" && words[1] === "tsx") tsxArgs = words.slice(2);
  else if (words[0] === "tsx") tsxArgs = words.slice(1);
  else return `not a lesson command: \`${command}\``;
  const [file, ...args] = tsxArgs;
  if (file === undefined || /["'|&;<>$`]/.test(tsxArgs.join(" "))) return `cannot run \`${command}\` without a shell`;
  return { file, args };
}

/**
 * 真跑的 runner：npm 脚本照 package.json 解析，在 `root` 下用 tsx 跑那一课的文件（没有 npm 的开场白）。同一条命令一个进程里
 * 只跑一次（缓存 Promise），同时最多每个 CPU 跑一个。`done` 是已经跑过的（vitest 的 globalSetup 把每课的演示都跑过一遍：
 * `s03_stream/code.ts` → 结果）。
 */
export function createCommandRunner(root: string, timeoutMs = HANG_GUARD_MS, done: Readonly<Record<string, RunResult>> = {}): CommandRunner {
  const pkg = z.object({ scripts: z.record(z.string(), z.string()).default({}) }).parse(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
  const cache = new Map<string, Promise<RunResult>>();
  const limit = limitConcurrency();
  return (command) => {
    const target = resolveCommand(command, pkg.scripts);
    if (typeof target === "string") return Promise.resolve({ ok: false, error: target });
    const file = target.file.replace(/^\.\//, "");
    const key = [file, ...target.args].join("\0");
    let job = cache.get(key);
    if (!job) {
      const ready = target.args.length === 0 ? done[file] : undefined;
      job = ready ? Promise.resolve(ready) : limit(() => runTsx(root, file, target.args, timeoutMs));
      cache.set(key, job);
    }
    return job;
  };
}

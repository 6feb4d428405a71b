// npm run test:load：机器忙的时候 npm test 照样全绿（issue 28）。
// 每个核起一个空转的子进程（CPU hog），把所有核占满，然后接连跑三遍 npm test，连同网页阅读器那组（npm run test:site）一起跑；
// 三遍都过才算过。这些测试里没有一条结论取决于机器多快（tooling/hang-guard.ts 说怎么做到的），这里就是在一台被占满的机器上证明它。
// 两组放在同一次 vitest 里跑（npm test 再加 --project reader），只有一份报告，.ci/run 照样数它。
//   npm run test:load                       三遍
//   npm run test:load -- --runs 1 [参数…]   一遍；别的参数原样交给每一遍 npm test（.ci/run 用它写 vitest 的 JSON 报告）
// hog 一定会退出：跑完、跑挂、被 Ctrl+C 或被 kill，这个进程退出前都先杀掉它们；万一这个进程被 SIGKILL（来不及收拾），
// hog 的 stdin 是接到这个进程的一根管道，这个进程一没，管道的另一头就关了，hog 读到结尾就退出。
// （hog 每空转 50 毫秒让一次事件循环，好读到管道的结尾。不靠「父进程号变了没有」：在 Node 20 上实测，一直空转的循环里
// 读到的 process.ppid 在父进程没了以后还是原来的值，hog 就一直转下去。）
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { ROOT } from "../tooling/course.ts";

/** 一个 hog：空转；每 50 毫秒让一次事件循环，stdin 读到结尾（启动它的进程没了）就退出。 */
export const HOG_SOURCE =
  'process.stdin.on("end", () => process.exit(0)).on("error", () => process.exit(0)).resume(); const spin = () => { const end = Date.now() + 50; while (Date.now() < end); setImmediate(spin); }; spin();';

/** 起一个 hog 的命令、参数和选项：stdin 接一根管道，另一头只在起它的进程手里。source 只给测试换一段源码用。 */
export const hogCommand = (source = HOG_SOURCE): [string, string[], { stdio: ["pipe", "ignore", "ignore"] }] => [process.execPath, ["-e", source], { stdio: ["pipe", "ignore", "ignore"] }];

/** 起 n 个 hog，每个是这个进程的子进程。 */
export function startHogs(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(...hogCommand()));
}

/** 杀掉还活着的 hog（同步，进程退出的 exit 事件里也能用）。 */
export function stopHogs(hogs: readonly ChildProcess[]): void {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill("SIGKILL");
}

export type LoadArgs = { runs: number; hogs: number; rest: string[] };

/** `--runs N`、`--hogs N`（也可写成 `--runs=N`）是这个脚本的，别的原样交给 npm test；写错了是一句说明。 */
export function parseLoadArgs(argv: readonly string[], cores = availableParallelism()): LoadArgs | string {
  const out: LoadArgs = { runs: 3, hogs: cores, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^--(runs|hogs)(?:=(.*))?$/.exec(arg);
    if (m === null) {
      out.rest.push(arg);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || !/^[1-9]\d*$/.test(value)) return `--${m[1]} 要一个正整数，现在是 ${value === undefined ? "空的" : JSON.stringify(value)}\n用法：npm run test:load [-- --runs 3] [-- --hogs <核数>] [给 npm test 的参数]`;
    out[m[1] as "runs" | "hogs"] = Number(value);
  }
  return out;
}

/** npm test 之外，每一遍还带上的那组测试：网页阅读器（vitest.config.ts ⑦）。 */
export const ALSO_UNDER_LOAD = ["--project", "reader"] as const;

/** 跑一遍 npm test 加上 ALSO_UNDER_LOAD（用的是启动这个脚本的那个 npm），输出直接上终端；交回退出码。 */
function npmTest(rest: readonly string[], running: { child?: ChildProcess }): Promise<number> {
  const npm = process.env.npm_execpath;
  const [command, args] = npm === undefined ? ["npm", ["test"]] : [process.execPath, [npm, "test"]];
  const child = spawn(command, [...args, "--", ...ALSO_UNDER_LOAD, ...rest], { cwd: ROOT, stdio: "inherit" });
  running.child = child;
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  const args = parseLoadArgs(process.argv.slice(2));
  if (typeof args === "string") {
    console.error(args);
    return 2;
  }
  const hogs = startHogs(args.hogs);
  const running: { child?: ChildProcess } = {};
  process.on("exit", () => stopHogs(hogs));
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      stopHogs(hogs);
      running.child?.kill(signal);
      process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[signal]);
    });
  }
  const load = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");
  const results: string[] = [];
  let passed = 0;
  for (let run = 1; run <= args.runs; run++) {
    const dead = hogs.filter((h) => h.exitCode !== null || h.signalCode !== null).length;
    if (dead > 0) {
      console.error(`test:load：${dead} 个 hog 自己退出了，机器不再是满的，这一遍不算数`);
      return 1;
    }
    console.log(`\n── test:load 第 ${run}/${args.runs} 遍：npm test 和 test:site，${args.hogs} 个 hog 占着 ${availableParallelism()} 个核（负载 ${load()}）──\n`);
    const t0 = performance.now();
    const code = await npmTest(args.rest, running);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    if (code === 0) passed++;
    results.push(`第 ${run} 遍 ${code === 0 ? "通过" : `没通过（退出码 ${code}）`}，${seconds} s，负载 ${load()}`);
  }
  stopHogs(hogs);
  console.log(`\n── test:load：${args.runs} 遍里 ${passed} 遍通过（${args.hogs} 个 hog，${availableParallelism()} 个核）──`);
  for (const line of results) console.log(`  ${line}`);
  return passed === args.runs ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = await main();

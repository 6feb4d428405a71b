// npm run bench:check [-- s01 s05 …] [--runs 5]：改一次练习文件之后，npm run check 多久给出报告（issue 31 item 5：两核机器上不超过 8 秒）。
// 练习文件用这一课自己的 code.ts（每个阶段都过、最后还跑演示：正常改动里最慢的一条路），放在 .tmp/ 下，不碰学习者的 practice/。
//   冷：每次改一行（文件末尾加一行注释），再起一个新的 `npm run check -- sNN`，从起进程量到它退出；
//   热：先起一个 `npm run check -- sNN --watch`，等它第一份报告出来（不算），再改 runs 次，每次从写文件量到下一份报告出来。
// 每课取 runs 次的中位数。机器是和别人共用的：前后各记一次 uptime 的负载，数字要和负载一起看。
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { PRACTICE_DIR_ENV } from "../../tooling/practice/lesson-arg.ts";

const WORK = join(ROOT, ".tmp", "bench-check");
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const ids = args.filter((a, i) => !a.startsWith("--") && i !== runsAt + 1);
const lessons = ids.length > 0 ? ids : LESSONS;
/** watch 模式每份报告之后打的那一行（scripts/practice/check.ts）。 */
const REPORT_DONE = "（--watch：盯着";

const env = { ...process.env, [PRACTICE_DIR_ENV]: WORK, NO_COLOR: "1" };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number): string => (ms / 1000).toFixed(2);
const load = (): string => execFileSync("uptime", { encoding: "utf8" }).trim();

/** 改一次：文件末尾多一行注释（每次不一样，保证真的变了）。 */
function edit(file: string, k: number): void {
  writeFileSync(file, `${readFileSync(file, "utf8")}// edit ${k}\n`);
}

function runOnce(id: string): Promise<{ ms: number; ok: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", "check", "--", id], { cwd: ROOT, env, stdio: "ignore" });
    child.on("close", (code) => resolve({ ms: Date.now() - started, ok: code === 0 }));
  });
}

/** 起一个 --watch，交回「等下一份报告」的函数和关掉它的函数。 */
function watcher(id: string): { next: () => Promise<number>; stop: () => void } {
  const child: ChildProcess = spawn("npm", ["run", "-s", "check", "--", id, "--watch"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"], detached: true });
  let waiting: (() => void) | undefined;
  let buffered = "";
  let reports = 0;
  let seen = 0;
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    buffered += d;
    reports = buffered.split(REPORT_DONE).length - 1;
    if (reports > seen && waiting !== undefined) waiting();
  });
  return {
    next: () => {
      const started = Date.now();
      return new Promise((resolve) => {
        const done = (): void => {
          seen = reports;
          waiting = undefined;
          resolve(Date.now() - started);
        };
        if (reports > seen) done();
        else waiting = done;
      });
    },
    stop: () => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    },
  };
}

const before = load();
const rows: string[] = [];
for (const id of lessons) {
  const file = join(WORK, lessonDir(id), "code.ts");
  rmSync(join(WORK, lessonDir(id)), { recursive: true, force: true });
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, readFileSync(join(ROOT, lessonDir(id), "code.ts"), "utf8"));
  const cold: number[] = [];
  for (let k = 0; k < runs; k++) {
    edit(file, k);
    const r = await runOnce(id);
    if (!r.ok) throw new Error(`${id}: check did not pass on the lesson's own code`);
    cold.push(r.ms);
  }
  const w = watcher(id);
  await w.next(); // 第一份报告：起进程、第一次检查，不算
  const warm: number[] = [];
  for (let k = 0; k < runs; k++) {
    const next = w.next();
    edit(file, runs + k);
    warm.push(await next);
  }
  w.stop();
  const row = `| ${id} | ${seconds(median(cold))} | ${seconds(median(warm))} | ${cold.map(seconds).join(" ")} | ${warm.map(seconds).join(" ")} |`;
  rows.push(row);
  console.error(`${id}: cold ${seconds(median(cold))} s, warm ${seconds(median(warm))} s`);
}
rmSync(WORK, { recursive: true, force: true });
console.log(`uptime before: ${before}`);
console.log(`uptime after:  ${load()}`);
console.log(`\n| 课 | 冷，中位数（秒） | 热 --watch，中位数（秒） | 冷，${runs} 次 | 热，${runs} 次 |\n|---|---|---|---|---|\n${rows.join("\n")}`);

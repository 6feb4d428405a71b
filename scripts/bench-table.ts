// npm run bench：打印四张表，每张是下面一个 section 函数，彼此独立。
//   pi      mini Pi（默认 s12）和真实 Pi 1.6.0 的 runAgentLoop 做同样的三种工作量，一个进程里交替计时，比每单位耗时；
//   startup s12 演示（npm run s12 / npm start，以及课文件开头写的 npx tsx）启动一次花的 CPU，和 tsx 跑一行代码比；
//   scale   逐规模的表：每个操作在逐级增大的规模上的每项耗时，看是不是线性增长；
//   suite   整个 npm test 的墙钟时间和 CPU 时间（跑 BENCH_SUITE_RUNS 次，默认 3，给最小值和中位数；0 就不跑），和同一次运行里量的
//           「tsx 跑一行代码」之比（尺子），还有前后的负载；测试变慢了在这里看得见。
// 用法：tsx scripts/bench-table.ts [pi|startup|scale …] [sNN]——不写 section 就全跑，sNN 换一课（默认 s12，也可用 BENCH_LESSON）。
// BENCH_CODE：量另一份 code.ts（见下）。BENCH_RUNS：对照时计时几轮（默认 11）；BENCH_BLOCK_MS：每轮每边连着跑至少多少毫秒（默认 200）；
// BENCH_HEAP=warm|cold：只量一种堆的状态（默认两种都量）；BENCH_WARMUP：对照前每边预热几次（默认 3）；
// BENCH_STARTUP_RUNS：每条启动命令跑几次（默认 10）；BENCH_SCALE_RUNS：规模表每档跑几次取最快（默认 5）。
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, loadavg } from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { loadPiBench, PI_VERSION } from "../fidelity/pi-install.ts";
import { alternate, median, ratios } from "../tooling/bench/compare.ts";
import { collectDeltas, miniSide, treeAppendAndPath, turnWithCallsInOneResponse, turnWithOneCallPerResponse, type WorkloadKind } from "../tooling/bench/workloads.ts";
import { type LessonModule, importLesson } from "../tooling/lesson.ts";
import { ROOT, lessonDir } from "../tooling/course.ts";

const args = process.argv.slice(2);
const lesson = args.find((a) => /^s\d\d$/.test(a)) ?? process.env.BENCH_LESSON ?? "s12";
const wanted = args.filter((a) => !/^s\d\d$/.test(a));
const runs = Number(process.env.BENCH_RUNS ?? 11);
const blockMs = Number(process.env.BENCH_BLOCK_MS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const startupRuns = Number(process.env.BENCH_STARTUP_RUNS ?? 10);
const scaleRuns = Number(process.env.BENCH_SCALE_RUNS ?? 5);
// BENCH_CODE=路径：量一份别处的 code.ts（比如另一个分支的草稿，放在仓库里才找得到 zod），按 sNN 那一课的零件拼 agent。
const codeFile = process.env.BENCH_CODE === undefined ? join(ROOT, lessonDir(lesson), "code.ts") : resolve(process.env.BENCH_CODE);
const mod: LessonModule = process.env.BENCH_CODE === undefined ? await importLesson(lesson) : await import(pathToFileURL(codeFile).href);

const fmt = (x: number, digits: number): string => x.toFixed(digits);
const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;
const rule = (cells: string[]): string => `|${cells.map((c) => "-".repeat(c.length + 2)).join("|")}|`;
/** 一张 Markdown 表：表头、分隔行、各行，列宽按最宽的格子对齐。 */
function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const pad = (r: string[]): string[] => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])));
  console.log(row(pad(head)));
  console.log(rule(pad(head)));
  for (const r of rows) console.log(row(pad(r)));
}

// ── pi：和真实 Pi 对照 ─────────────────────────────────────
const COMPARED: { kind: WorkloadKind; label: string; unit: string; sizes: number[] }[] = [
  { kind: "deltas", label: "one answer of n text deltas", unit: "delta", sizes: [10_000, 100_000] },
  { kind: "callsInOneResponse", label: "one response with n tool calls", unit: "call", sizes: [100, 1_000] },
  { kind: "oneCallPerResponse", label: "n responses of one call each", unit: "response", sizes: [50, 200] },
];

/** 两种堆的状态（见 tooling/bench/compare.ts）：热堆是主要的一张，冷堆看每次运行前把堆清空时的样子。 */
const HEAPS = [
  { name: "warm", title: "warm heap: each side runs a block of back-to-back runs", gc: false },
  { name: "cold", title: "cold heap: a full GC before every run, one run per block", gc: true },
].filter((h) => (process.env.BENCH_HEAP ?? h.name) === h.name);

async function compareWithPi(): Promise<void> {
  const file = relative(ROOT, codeFile);
  const sha = createHash("sha1").update(readFileSync(codeFile)).digest("hex").slice(0, 10);
  const pi = await loadPiBench();
  console.log(`\nmini Pi ${lesson} (${file}, sha1 ${sha}) vs Pi ${PI_VERSION} runAgentLoop — Node ${process.version}`);
  console.log(`one process; per workload ${warmup} warm-up runs per side, then ${runs} rounds, each side once per round, order alternating`);
  if ("missing" in pi) console.log(`\n${pi.missing}. Only the mini side is measured below.`);
  const mini = miniSide(lesson, mod);
  const events: string[] = [];
  for (const heap of HEAPS) {
    const rows: string[][] = [];
    for (const { kind, label, unit, sizes } of COMPARED) {
      for (const n of sizes) {
        const t = await alternate(mini[kind](n), "side" in pi ? pi.side[kind](n) : undefined, { warmup, runs, blockMs, gc: heap.gc });
        const perUnit = (ms: number[]): string => `${fmt((Math.min(...ms) * 1000) / n, 2)} / ${fmt((median(ms) * 1000) / n, 2)}`;
        const cells = [label.replace("n ", `${n.toLocaleString("en-US")} `), unit, String(t.block), perUnit(t.mini.ms)];
        if (t.pi === undefined) rows.push([...cells, "—", "—", "—"]);
        else {
          const r = ratios({ mini: t.mini, pi: t.pi });
          rows.push([...cells, perUnit(t.pi.ms), fmt(r.best, 2), fmt(r.median, 2)]);
          const per = (count: number): string => String(Number((count / n).toPrecision(2)));
          if (n === sizes[0] && heap === HEAPS[0]) events.push(`${per(t.pi.events)} vs ${per(t.mini.events)} per ${unit}`);
        }
      }
    }
    console.log(`\n${heap.title}${heap.gc ? "" : ` (≥ ${blockMs} ms)`}\n`);
    printTable(["workload", "unit", "runs/block", "mini µs/unit best / median", "Pi µs/unit best / median", "mini/Pi best", "mini/Pi median"], rows);
  }
  console.log(`
mini/Pi < 1 means the mini is faster. µs/unit is a block's time per run divided by n. "best" compares the fastest block
of each side; "median" is the median over the rounds of (mini block / Pi block), the two blocks of a round measured back
to back, so a busy machine moves both. Both sides store the same messages (checked). Each run builds a fresh agent with
one tool and runs one turn. Warm heap: no forced GC, like a session that has been running for a while; a side's garbage
is mostly collected inside its own block. Cold heap: V8 shrinks the young generation after a full GC, so each run grows
the heap again, like a process that has just started; the side that allocates more pays for that.
What makes the comparison uneven:
- Pi emits more events and forwards every one to its subscribers: per unit ${events.join(", ") || "(not measured)"} (Pi AgentEvents
  vs the mini's RuntimeEvents). For every text delta Pi also copies the partial message into a message_update event.
- Pi runs the calls of one response in parallel by default (toolExecution "parallel": every call prepared, then all
  executed through Promise.all); the mini runs them one after another, synchronously.
- Pi validates arguments with pi-schema's compiled validator (coercing, on a structuredClone of the arguments), the mini
  with a zod schema; Pi also declares the tools in a system message and normalises the context before every request.${"missing" in pi ? `\n(Pi side: ${pi.missing}.)` : ""}`);
}

// ── startup：演示启动一次的 CPU ───────────────────────────
/** 在仓库根目录用 bash 跑一条命令（像 npm 一样把 node_modules/.bin 放进 PATH），回整棵进程树的 CPU 秒数（user + sys）。 */
function cpuSeconds(command: string): number {
  const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` };
  const res = spawnSync("bash", ["-c", `${command} >/dev/null; status=$?; times; exit $status`], { cwd: ROOT, env, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`\`${command}\` failed (exit ${res.status}): ${res.stderr}`);
  // times 打两行：shell 自己的 user/sys，和它等过的子进程（连同孙进程）的 user/sys，如 "0m0.430s 0m0.080s"。
  const children = res.stdout.trim().split("\n").at(-1) ?? "";
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length !== 2) throw new Error(`cannot read the CPU times of \`${command}\` from ${JSON.stringify(res.stdout)}`);
  return seconds[0] + seconds[1];
}

/** 一条启动命令，和它的启动方式（launcher：命令里文件名前面的部分，不算预加载 zod 的 --import zod）。 */
type StartupCommand = { label: string; launcher: string; command: string };

/** "node --import zod --import tsx s12_packages/code.ts" → 启动方式 "node --import tsx"。 */
const launcherOf = (command: string): string =>
  command
    .trim()
    .split(/\s+/)
    .slice(0, -1)
    .join(" ")
    .replace(/ --import zod\b/, "");

async function startUp(): Promise<void> {
  const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  // 临时文件放在仓库里（.tmp/ 不进版本库），和课文件用同一份 tsconfig、同一个 tsx 缓存。
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".tmp", "bench-"));
  try {
    writeFileSync(join(dir, "one-line.ts"), 'console.log("hi");\n');
    writeFileSync(join(dir, "zod-only.ts"), 'import { z } from "zod";\nconsole.log(typeof z);\n');
    const one = relative(ROOT, join(dir, "one-line.ts"));
    // 同一条命令只量一次，几个名字写在一行（npm run s12 和 npm start 现在是同一条）
    const named: [string, string][] = [
      ["npx tsx s12_packages/code.ts", "tsx s12_packages/code.ts"],
      ["npm run s12", scripts.s12],
      ["npm start", scripts.start],
    ];
    const demos = [...new Set(named.map(([, command]) => command))].map((command) => ({
      label: `${named.filter(([, c]) => c === command).map(([name]) => name).join(" / ")}: ${command}`,
      command,
    }));
    // 每种启动方式跑一行代码，是这种启动方式的底价；第一条（tsx 跑一行代码）是所有命令的公共基准。
    const floors = [...new Set(["tsx", ...demos.map((d) => launcherOf(d.command))])].map((launcher) => ({ label: `${launcher}, one-line file`, launcher, command: `${launcher} ${one}` }));
    const commands: StartupCommand[] = [
      ...floors,
      { label: 'tsx, a file that only imports "zod"', launcher: "tsx", command: `tsx ${relative(ROOT, join(dir, "zod-only.ts"))}` },
      ...demos.map((d) => ({ ...d, launcher: launcherOf(d.command) })),
    ];
    const cpu = commands.map(() => [] as number[]);
    for (const { command } of commands) cpuSeconds(command); // 预热：tsx 的转译缓存、文件系统缓存
    for (let r = 0; r < startupRuns; r++) {
      const order = commands.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      for (const i of order) cpu[i].push(cpuSeconds(commands[i].command));
    }
    const med = cpu.map((xs) => median(xs));
    const floor = (launcher: string): number => med[floors.findIndex((f) => f.launcher === launcher)];
    console.log(`\nStart-up — CPU time (user + sys, whole process tree) per run, ${startupRuns} runs per command, alternating; Node ${process.version}`);
    console.log();
    printTable(
      ["command", "CPU s best / median", "× tsx one-line", "× one-line, same launcher"],
      commands.map(({ label, launcher }, i) => [label, `${fmt(Math.min(...cpu[i]), 3)} / ${fmt(med[i], 3)}`, `${fmt(med[i] / med[0], 2)}×`, `${fmt(med[i] / floor(launcher), 2)}×`]),
    );
    console.log(`
The launcher is the command without its file (and without a --import zod preload); "same launcher" divides by that
launcher running the one-line file. What the demo adds on top of tsx is almost all the import of zod, whose ~95 modules
each pass through tsx's loader hooks; npm run sNN and npm start import zod before tsx registers them. See tooling/bench/README.md (第二张).`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── scale：逐规模的表 ──────────────────────────────────────
// 每个操作在逐级增大的规模上跑几次取最快的一次，打印总耗时和「每项耗时」。
// 每项耗时在各规模上大致不变 = 线性增长；它随规模一起涨 = 有超线性的路径（最后一列是相邻两档每项耗时之比）。
async function best(fn: () => unknown): Promise<number> {
  await fn(); // 预热
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < scaleRuns; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

async function scaleTable(title: string, unit: string, sizes: number[], make: (n: number) => () => unknown): Promise<void> {
  console.log(`\n${title}`);
  console.log(`| ${unit.padStart(9)} | ${"best ms".padStart(9)} | ${"µs / item".padStart(9)} | per-item × prev |`);
  console.log(`|${"-".repeat(11)}|${"-".repeat(11)}|${"-".repeat(11)}|${"-".repeat(17)}|`);
  let prev: number | undefined;
  for (const n of sizes) {
    const ms = await best(make(n));
    const perItem = (ms * 1000) / n;
    const ratio = prev === undefined ? "—" : `${fmt(perItem / prev, 2)}×`;
    console.log(`| ${n.toLocaleString("en-US").padStart(9)} | ${fmt(ms, 2).padStart(9)} | ${fmt(perItem, 3).padStart(9)} | ${ratio.padStart(15)} |`);
    prev = perItem;
  }
}

async function scaleTables(): Promise<void> {
  console.log(`\nmini Pi ${lesson} — scale: best of ${scaleRuns} runs per size (Node ${process.version})`);
  await scaleTable("SessionTree: append n entries, then currentPath() + allEntries()", "entries", [1_000, 10_000, 100_000], (n) => treeAppendAndPath(mod, n));
  // 对照：同样多的条目直接放进一个 Map<string, object>。大 Map 本身每项就会随规模变贵（堆增长、GC、缓存），
  // 上面那张表的每项耗时若和这张同步上涨，就不是 SessionTree 自己的超线性路径。
  await scaleTable("baseline: Map<string, object>.set n entries (no SessionTree)", "entries", [1_000, 10_000, 100_000], (n) => () => {
    const map = new Map<string, object>();
    for (let i = 0; i < n; i++) map.set(`e${i + 1}`, { id: `e${i + 1}`, parentId: i === 0 ? null : `e${i}`, role: "user", content: `q${i}` });
    return map.size;
  });
  await scaleTable("collectAssistantMessage: n text_delta events", "deltas", [10_000, 100_000, 1_000_000], (n) => collectDeltas(mod, n));
  await scaleTable("one turn, n tool calls in ONE response (default maxTurns)", "calls", [250, 500, 1_000, 2_000, 4_000], (n) => turnWithCallsInOneResponse(lesson, mod, n));
  await scaleTable("one turn, ONE tool call per response, n responses (maxTurns = n + 1)", "calls", [250, 500, 1_000, 2_000, 4_000], (n) =>
    turnWithOneCallPerResponse(lesson, mod, n),
  );
}

// ── suite：整套测试的墙钟时间 ──────────────────────────────
let clockTicks: number | undefined;
/** 这个进程等过的子进程到现在一共用了多少 CPU 秒（读 Linux 的 /proc；别的系统上为 undefined）。 */
function childrenCpuSeconds(): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  // 每秒几个 tick 只问一次：问的那个 getconf 也是子进程，它的 CPU 会算进下一次量的数里
  clockTicks ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /s, "").split(" ");
  return (Number(fields[13]) + Number(fields[14])) / clockTicks; // cutime + cstime（stat 的第 16、17 个字段）
}

const suiteRuns = Number(process.env.BENCH_SUITE_RUNS ?? 3);

/** 跑一个子进程，量它的墙钟时间和 CPU 时间（连同它等过的孙进程），秒。 */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { wall: number; cpu?: number; status: number | null } {
  const cpu0 = childrenCpuSeconds();
  const t0 = performance.now();
  const run = spawnSync(command, args, { cwd: ROOT, encoding: "utf8", env });
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = childrenCpuSeconds();
  return { wall, cpu: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0, status: run.status };
}

const loadAverage = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");

// 量整套测试，同一次运行里也量「tsx 跑一行代码」当尺子（issue 28）：机器快慢、忙闲一起变，两者之比比绝对秒数稳得多，
// 别的机器上量出来的比值也能拿来比。尺子在每遍测试前后各量几次，取中位数。
async function suiteWallTime(): Promise<void> {
  if (suiteRuns <= 0) return;
  const require = createRequire(join(ROOT, "package.json"));
  const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
  const tsx = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  // 量的是 npm test 跑的那些：package.json 里 test 的参数（只跑 course 那组，vitest.config.ts ⑦），不经 npm，免得把 npm 的启动也算进去
  const testScript: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.test;
  if (!testScript.startsWith("vitest run")) throw new Error(`package.json 的 test 不是 vitest run：${testScript}`);
  const testArgs = testScript.split(" ").filter((w) => w !== "").slice(1);
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".tmp", "bench-"));
  try {
    const oneLine = relative(ROOT, join(dir, "one-line.ts"));
    writeFileSync(join(ROOT, oneLine), 'console.log("hi");\n');
    const yardstick: { wall: number; cpu?: number }[] = [];
    const measureYardstick = (times: number): void => {
      for (let i = 0; i < times; i++) yardstick.push(timed(process.execPath, [tsx, oneLine]));
    };
    timed(process.execPath, [tsx, oneLine]); // 预热：tsx 的转译缓存、文件系统缓存
    const walls: number[] = [];
    const cpus: number[] = [];
    const loadBefore = loadAverage();
    console.log(`\nnpm test (vitest run) — the whole suite, ${suiteRuns} runs, ${availableParallelism()} CPUs (Node ${process.version}); load average ${loadBefore} (1, 5, 15 min) before`);
    console.log(`| ${"run".padStart(5)} | ${"wall s".padStart(7)} | ${"CPU s".padStart(7)} | result |`);
    console.log(`|${"-".repeat(7)}|${"-".repeat(9)}|${"-".repeat(9)}|${"-".repeat(8)}|`);
    for (let i = 1; i <= suiteRuns; i++) {
      measureYardstick(3);
      const run = timed(process.execPath, [vitest, ...testArgs, "--reporter=dot"], { ...process.env, NO_COLOR: "1" });
      walls.push(run.wall);
      if (run.cpu !== undefined) cpus.push(run.cpu);
      console.log(`| ${String(i).padStart(5)} | ${fmt(run.wall, 1).padStart(7)} | ${(run.cpu === undefined ? "—" : fmt(run.cpu, 1)).padStart(7)} | ${(run.status === 0 ? "pass" : "FAIL").padEnd(6)} |`);
    }
    measureYardstick(3);
    console.log(`| ${"min".padStart(5)} | ${fmt(Math.min(...walls), 1).padStart(7)} | ${(cpus.length ? fmt(Math.min(...cpus), 1) : "—").padStart(7)} |        |`);
    console.log(`| ${"med".padStart(5)} | ${fmt(median(walls), 1).padStart(7)} | ${(cpus.length ? fmt(median(cpus), 1) : "—").padStart(7)} |        |`);
    const yardWall = median(yardstick.map((y) => y.wall));
    const yardCpus = yardstick.flatMap((y) => (y.cpu === undefined ? [] : [y.cpu]));
    const yardCpu = yardCpus.length > 0 ? median(yardCpus) : undefined;
    console.log(`
Yardstick, measured in the same run (${yardstick.length} times, around every suite run): tsx running a one-line file,
median ${fmt(yardWall, 3)} s wall${yardCpu === undefined ? "" : `, ${fmt(yardCpu, 3)} s CPU`}.
npm test / yardstick (medians): ${fmt(median(walls) / yardWall, 1)}× wall${yardCpu === undefined || cpus.length === 0 ? "" : `, ${fmt(median(cpus) / yardCpu, 1)}× CPU`}.
Load average after: ${loadAverage()} (before: ${loadBefore}). Other work on the machine makes every figure noisy; the ratios less so.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── 跑哪些 section ─────────────────────────────────────────
const SECTIONS: Record<string, () => Promise<void>> = {
  pi: compareWithPi,
  startup: startUp,
  scale: scaleTables,
  suite: suiteWallTime,
};
const unknown = wanted.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(", ")}; choose from ${Object.keys(SECTIONS).join(", ")}`);
for (const [name, section] of Object.entries(SECTIONS)) if (wanted.length === 0 || wanted.includes(name)) await section();

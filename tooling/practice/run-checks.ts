// npm run check 的检查本身：把课程已有的检查按顺序用在一个文件上，不另写一套测试。
//   ① 类型检查、② API 报告（tooling/api/extract.ts，和 npm run gen:api 同一个提取器，对比提交的 tests/api/sNN.json）
//   ③ 行为测试、④ 黄金轨迹：子进程里跑 vitest，跑的就是 npm test 的那些测试文件，只留这一课的测试，
//      环境变量 LEARN_PI_LESSON_FILE 让 importLesson 导入这个文件（tooling/lesson.ts）
//   ⑤ 演示：跑这个文件的 main()，和 README「试一下」的输出比（tooling/docs/try-it.ts 的 checkTryIt）
// 前一项没过，后面的就不跑了。学习者的代码可能卡死：有测试在跑、一段时间毫无进展，或者演示过了时限，就杀掉子进程，报「卡住了」。
// 没有测试在跑的时候（vitest 启动、导入测试文件），卡住的不会是学习者写的函数体，而机器一忙这段可能要几十秒：
// 这时只按防卡死的上限（tooling/hang-guard.ts）算，免得把一份对的练习在忙的机器上报成「卡住了」。
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { z } from "zod";
import { buildFileReport } from "../api/extract.ts";
import { contextFor, loadProject } from "../docs/context.ts";
import { checkTryIt } from "../docs/try-it.ts";
import { resolveCommand } from "../demos.ts";
import { LESSON_FILE_ENV } from "../lesson.ts";
import { ROOT, lessonDir } from "../course.ts";
import { HANG_GUARD_MS } from "../hang-guard.ts";
import type { Trace } from "../scenarios/shape.ts";
import { type Stage, blame, readStageMap, stageOfTest, stagesOf, testKey } from "./stage-lookup.ts";
import { type CheckNames, checkNames, stageName } from "./check-list.ts";
import { type Finding, apiLines, diagnosticLines, diffApi, findTodo, ruleWords, testLines, todoLines, traceLines } from "./explain.ts";
import { howItWorks } from "./readme.ts";
import { EVENTS_ENV, type ErrorInfo, type TestEvent } from "./vitest/reporter.ts";
import { makePractice } from "./stub.ts";

export type Status = "pass" | "fail" | "skip";
export type CheckResult = { name: string; status: Status; note: string };
/** stage：停在哪个阶段（类型、API 没过，或者所有阶段都过了，就没有）。 */
export type Outcome = { id: string; file: string; checks: CheckResult[]; first?: Finding; stage?: StageProgress; ok: boolean; unmapped?: string[] };

export type CheckOptions = {
  /** 有测试在跑时，多久（毫秒）没有任何进展就算卡住。 */
  stuckMs?: number;
  /** 演示最多跑多久。 */
  demoTimeoutMs?: number;
};

/**
 * tsx 子进程（演示、为解释一个失败重跑一个黄金场景）的上限：它们平时一秒上下就跑完（连 tsx 启动），一分钟只有卡死才够得着，
 * 机器再忙也不会把一份对的练习报成「演示卡住了」。测试那边的 10 秒只在有测试在跑时才算（一个测试平时几十毫秒）。
 */
const CHILD_GUARD_MS = 60_000;
const DEFAULTS = { stuckMs: 10_000, demoTimeoutMs: CHILD_GUARD_MS };

const rel = (file: string): string => relative(ROOT, file) || file;

// ── 课程测试放在哪 ───────────────────────────────────────
/**
 * 行为测试：tests/ 下每个用 forLessonsFrom 按课开 describe 的测试文件（行为、坏输入、性质……以后新加的也算），
 * tests/behaviour/ 的排在前面（按课排好）；黄金轨迹：tests/golden.test.ts。
 */
export function courseTestFiles(): { behaviour: string[]; golden: string[] } {
  const dir = join(ROOT, "tests");
  const all = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts") && !f.includes("fixtures"))
    .map((f) => `tests/${f.replaceAll("\\", "/")}`)
    .sort();
  const behaviour = all.filter((f) => /\bforLessonsFrom\(/.test(readFileSync(join(ROOT, f), "utf8")));
  const first = (f: string): number => Number(!f.startsWith("tests/behaviour/"));
  behaviour.sort((a, b) => first(a) - first(b) || (a < b ? -1 : 1));
  return { behaviour, golden: ["tests/golden.test.ts"] };
}

/**
 * 只留这一课的测试：forLessonsFrom 给每课开的 describe 就叫课号（全名以 `s04 ` 开头）；
 * 黄金轨迹的测试全名是 `<场景> s04 复现 <课> 的黄金轨迹`。
 */
export const lessonTestPattern = (id: string): string => `^${id} |^[a-z0-9-]+ ${id} 复现 `;

// ── ③④ 在子进程里跑 vitest ───────────────────────────────
export type TestRecord = { id: string; file: string; line: number; name: string; state: string; errors: ErrorInfo[] };
/** tests：收集到的这一课的全部测试，state 是 passed、failed，或（检查中途停下时）pending。 */
export type TestRun = { tests: TestRecord[]; hung?: TestRecord; hungMs?: number; unhandled: ErrorInfo[]; crashed?: string };

/** vitest 的命令行入口（它的 package.json 里 bin 指的那个文件）。 */
export const vitestCli = (): string => join(dirname(createRequire(join(ROOT, "package.json")).resolve("vitest/package.json")), "vitest.mjs");

/** 杀掉子进程和它开的所有进程（vitest 的 worker）：子进程自成一组（detached），按组杀。 */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/**
 * 跑 vitest，边跑边读 reporter 写的事件。卡死的判断是「有测试开始了没结束，silenceMs 毫秒里一条事件都没有」（没有测试在跑时
 * 是 HANG_GUARD_MS，见文件开头）：学习者的循环要是只靠
 * Promise 空转，worker 里的定时器永远等不到，vitest 自己的超时和 worker 的消息都出不来，只能从外面看。
 * 卡住的是哪个测试：worker 里同步记下的「开始了、没结束」的那个（scripts/practice/worker-events.ts）。
 */
export async function runCourseTests(id: string, file: string, files: string[], silenceMs: number, signal?: AbortSignal): Promise<TestRun> {
  const dir = mkdtempSync(join(tmpdir(), "learn-pi-check-"));
  const events = join(dir, "events.ndjson");
  const child = spawn(
    process.execPath,
    [vitestCli(), "run", "--config", "tooling/practice/vitest/vitest.config.ts", "--testTimeout", String(Math.max(1_000, silenceMs - 2_000)), "-t", lessonTestPattern(id), ...files],
    {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, [LESSON_FILE_ENV]: `${id}=${resolve(file)}`, [EVENTS_ENV]: events, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-8_000)));
  child.stdout?.resume();

  const log = new EventLog(events);
  let silent: number | undefined;
  const exit = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
  // 用不着了（类型检查没过）：整组杀掉，结果没人要
  signal?.addEventListener("abort", () => killGroup(child), { once: true });
  const watchdog = setInterval(() => {
    log.drain();
    if (!log.done && Date.now() - log.lastEvent > (log.testRunning() ? silenceMs : HANG_GUARD_MS)) {
      silent = Date.now() - log.lastEvent;
      killGroup(child);
    }
  }, 200);
  const code = await exit;
  clearInterval(watchdog);
  log.drain();
  rmSync(dir, { recursive: true, force: true });
  killGroup(child); // worker 可能还在（比如 vitest 自己先退了）

  const tests = [...log.records.values()];
  if (silent !== undefined) {
    const hung = log.stuck(files) ?? { id: "?", file: "?", line: 0, name: "（没能确定是哪一个）", state: "running", errors: [] };
    return { tests, hung, hungMs: silent, unhandled: log.unhandled };
  }
  const crashed = !log.done ? `vitest 没跑完（退出码 ${code}）：${stderr.trim().split("\n").slice(-6).join(" / ") || "没有输出"}` : undefined;
  return { tests, unhandled: log.unhandled, crashed };
}

/** reporter 一行一条写下的事件（scripts/practice/reporter.ts），边跑边读：收集到哪些测试、哪个开始了没结束、结果、没人接的错误。 */
class EventLog {
  readonly records = new Map<string, TestRecord>();
  readonly unhandled: ErrorInfo[] = [];
  done = false;
  lastEvent = Date.now();
  private readonly collected = new Map<string, TestRecord[]>();
  private readonly ended = new Set<string>();
  private readonly running = new Set<string>();
  private read = 0;

  constructor(private readonly file: string) {}

  /** 读进文件里新写下的完整几行。 */
  drain(): void {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return;
    }
    const end = text.lastIndexOf("\n") + 1;
    if (end > this.read) this.lastEvent = Date.now();
    for (const line of text.slice(this.read, end).split("\n")) if (line !== "") this.take(JSON.parse(line) as TestEvent);
    this.read = end;
  }

  private take(e: TestEvent): void {
    if (e.event === "collected") {
      const tests = e.tests.map((t) => ({ ...t, file: rel(e.file), state: "pending", errors: [] }));
      for (const t of tests) this.records.set(t.id, t);
      this.collected.set(rel(e.file), tests);
    } else if (e.event === "start") this.running.add(e.id);
    else if (e.event === "finish") this.running.delete(e.id);
    else if (e.event === "end") {
      const record = this.records.get(e.id);
      if (record !== undefined) Object.assign(record, { state: e.state, errors: e.errors });
    } else if (e.event === "file-end") this.ended.add(rel(e.file));
    else {
      this.done = true;
      this.unhandled.push(...e.errors);
    }
  }

  /** 有没有测试开始了、还没结束。 */
  testRunning(): boolean {
    return this.running.size > 0;
  }

  /** 卡住的是哪一个：开始了没结束的那个；万一没有（卡在测试之外，比如导入文件时），就是还没跑完的文件里第一个没结果的。 */
  stuck(files: string[]): TestRecord | undefined {
    const pending = (f: string): TestRecord | undefined =>
      (this.collected.get(f) ?? []).filter((t) => t.state === "pending").sort((a, b) => a.line - b.line)[0];
    const started = [...this.running].map((r) => this.records.get(r)).filter((t) => t !== undefined);
    return (
      started.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line)[0] ??
      files.filter((f) => this.collected.has(f) && !this.ended.has(f)).map(pending).find((t) => t !== undefined)
    );
  }
}

// ── ⑤ 演示和「试一下」 ──────────────────────────────────
type DemoFailure = { kind: "exit"; stderr: string; code: number | null } | { kind: "timeout"; ms: number };

/** 在 root 下跑 `tsx 文件`，和 npm run sNN 一样（不经 npm，没有横幅）；超时就整组杀掉。 */
function runTsx(file: string, args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<{ stdout: string; failure?: DemoFailure }> {
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

async function checkDemo(id: string, file: string, timeoutMs: number): Promise<Finding | undefined> {
  const dir = lessonDir(id);
  const scripts = z.object({ scripts: z.record(z.string(), z.string()) }).parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))).scripts;
  const failures = new Map<string, DemoFailure>();
  const run = async (command: string): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> => {
    const target = resolveCommand(command, scripts);
    if (typeof target === "string") return { ok: false, error: target };
    // 这一课的演示换成学习者的文件，别的课照旧
    const runs = target.file === `${dir}/code.ts` ? relative(ROOT, resolve(file)) : target.file;
    const { stdout, failure } = await runTsx(runs, target.args, timeoutMs);
    if (failure === undefined) return { ok: true, stdout };
    failures.set(command, failure);
    return { ok: false, error: failure.kind === "timeout" ? "timeout" : `exit ${failure.code}` };
  };
  const project = await loadProject({ run });
  const lesson = project.lessons.find((l) => l.id === id);
  if (lesson === undefined) throw new Error(`no lesson ${id}`);
  const readme = readFileSync(lesson.readmePath, "utf8");
  const problems = await checkTryIt(id, readme, contextFor(project, lesson));
  if (problems.length === 0) return undefined;

  const [command, failure] = [...failures][0] ?? [];
  if (command !== undefined && failure !== undefined) {
    if (failure.kind === "timeout") return { title: `演示卡住了：\`${command}\` 跑了 ${failure.ms / 1000} 秒还没结束`, lines: [HANG_HINT] };
    const todo = findTodo(failure.stderr);
    if (todo !== undefined) return { title: `演示跑到了还空着的地方：\`${command}\``, lines: todoLines(todo) };
    const tail = failure.stderr.trim().split("\n").filter((l) => l.trim() !== "");
    const error = tail.find((l) => /^\w*Error\b/.test(l)) ?? tail.at(-1) ?? "";
    return { title: `演示没跑完：\`${command}\` 退出码 ${failure.code}`, lines: [error] };
  }
  const differs = /output differs at line (\d+): expected (.*), got (.*) \((.*), block at line \d+\)$/.exec(problems[0]);
  if (differs) {
    return {
      title: `演示输出和 README「试一下」不一样：\`${differs[4]}\` 的第 ${differs[1]} 行`,
      lines: [`期望：${quoted(differs[2])}`, `实际：${quoted(differs[3])}`],
    };
  }
  return { title: "演示输出和 README「试一下」对不上", lines: problems };
}

/** checkTryIt 报的 `"一行"` 换成报告里别处一样的「一行」（`(end of output)` 说成「（没有这一行）」）。 */
const quoted = (s: string): string => (s === "(end of output)" ? "（没有这一行）" : `「${s.replace(/^"|"$/g, "")}」`);

const HANG_HINT = "多半是哪个循环停不下来，或者在等一个永远不会来的结果（await 了一个永远不 resolve 的 Promise）。";

// ── 按顺序跑 ─────────────────────────────────────────────
/** 一次检查的记账：每一项过了、没过、没跑，和第一个没过的那一项说了什么。 */
class Tally {
  readonly checks: CheckResult[] = [];
  first: Finding | undefined;
  /** 这一课跑到的测试里，tooling/stages.json 还没归到哪个阶段的（npm run gen:stages 之后新加的）。 */
  unmapped: string[] = [];
  /** 报告里按这个顺序列出的检查名（类型、API、各个阶段），演示最后。 */
  private readonly names: string[] = [];
  expect(names: readonly string[]): void {
    for (const n of names) if (!this.names.includes(n)) this.names.push(n);
  }
  skip(name: string, note: string): void {
    this.checks.push({ name, status: "skip", note });
  }
  fail(name: string, note: string, finding: Finding): void {
    this.checks.push({ name, status: "fail", note });
    this.first ??= finding;
  }
  pass(name: string, note = ""): void {
    this.checks.push({ name, status: "pass", note });
  }
  /** 报告里的顺序永远是 expect 的顺序，演示在最后；没轮到的记成「没跑」。 */
  ordered(demo: string): CheckResult[] {
    return [...this.names, demo].map((name) => this.checks.find((c) => c.name === name) ?? { name, status: "skip", note: "" });
  }
}

type Names = CheckNames;

/** ①② 类型和 API：同一个 TypeScript 程序。都过了才返回 true。 */
function checkTypesAndApi(id: string, file: string, tally: Tally, names: Names): boolean {
  const source = readFileSync(file, "utf8");
  const { report, diagnostics } = buildFileReport(file);
  if (diagnostics.length > 0) {
    tally.fail(names.types, `${diagnostics.length} 处错误`, {
      title: `类型检查没过（一共 ${diagnostics.length} 处，先看第一处）`,
      lines: diagnosticLines(diagnostics[0], source),
    });
    return false;
  }
  tally.pass(names.types);
  const expected = JSON.parse(readFileSync(join(ROOT, "tests", "api", `${id}.json`), "utf8")) as Record<string, string>;
  const api = diffApi(expected, report);
  const apiProblems = api.missing.length + api.changed.length + api.extra.length;
  if (apiProblems > 0) {
    tally.fail(names.api, `${apiProblems} 处不同`, { title: `API 和 ${id} 不一样：测试是照这一课的签名写的，先把签名对上`, lines: apiLines(api) });
    return false;
  }
  tally.pass(names.api);
  return true;
}

/** 当前阶段（第一个没过的）里还有几个没过、后面的阶段一共几个没过：报告只讲第一个，其余只报数。 */
export type StageProgress = { current: number; of: number; stage: Stage; restHere: number; later: number };

/**
 * ③④ 行为测试和黄金轨迹：一次 vitest，结果按阶段分组（tooling/stages.ts 的表，tooling/stages.json 的测试归属）。
 * 第一个有测试没过的阶段是「当前阶段」：前面的阶段过了，后面的先不看；只解释当前阶段的第一个失败。
 */
async function checkCourseTests(id: string, file: string, tally: Tally, started: Promise<TestRun>): Promise<StageProgress | undefined> {
  const files = courseTestFiles();
  const order = [...files.behaviour, ...files.golden];
  const stages = stagesOf(id);
  const names = stages.map((s, i) => stageName(i + 1, s));
  tally.expect(names);
  const run = await started;
  const progress = (current: number, restHere: number, later: number): StageProgress => ({ current, of: stages.length, stage: stages[current - 1], restHere, later });
  if (run.crashed !== undefined) {
    tally.fail(names[0], "没跑完", { title: "测试没跑完", lines: [run.crashed] });
    return progress(1, 0, 0);
  }
  const map = readStageMap();
  const known = new Set((map[id]?.stages ?? []).flat());
  tally.unmapped = run.tests.map(testKey).filter((k) => !known.has(k));
  const sorted = [...run.tests].sort((a, b) => order.indexOf(a.file) - order.indexOf(b.file) || a.line - b.line);
  const groups = stages.map((_, i) => sorted.filter((t) => stageOfTest(map, id, t) === i + 1));
  const hungAt = run.hung === undefined ? undefined : stageOfTest(map, id, run.hung);
  // 卡住时检查是被杀掉的：排在卡住的那个 worker 后面的测试文件还没轮到，连收集都没收集，它们的阶段就是空的。
  // 这时空不说明检查器和测试对不上，只说明没跑到；没卡住时一个阶段一个测试都没有，才是对不上
  const expected = (i: number): number => (map[id]?.stages ?? []).filter((_, at) => Math.max(1, at) === i + 1).reduce((n, keys) => n + keys.length, 0);
  const failedAt = groups.findIndex((g) => (g.length === 0 && run.hung === undefined) || g.some((t) => t.state === "failed")) + 1 || undefined;
  const currentAt = Math.min(hungAt ?? Infinity, failedAt ?? Infinity);
  if (currentAt === Infinity) {
    // 每个测试都过了：测试之外还有没人接的错误（比如定时器里抛的），算在最后一个阶段
    for (const [i, g] of groups.entries()) {
      if (run.unhandled.length > 0 && i === groups.length - 1) {
        tally.fail(names[i], "有漏掉的错误", { title: "测试之外还抛了错误（比如定时器里）", lines: testLines(run.unhandled) });
        return progress(i + 1, 0, 0);
      }
      tally.pass(names[i], `${g.length} 个全过`);
    }
    return undefined;
  }
  const notPassed = (g: readonly TestRecord[]): number => g.filter((t) => t.state !== "passed").length;
  for (const [i, g] of groups.entries()) {
    const k = i + 1;
    if (k > currentAt) break;
    const finished = g.filter((t) => t.state === "passed" || t.state === "failed");
    if (k < currentAt) {
      const total = Math.max(g.length, expected(i));
      if (finished.length === total) tally.pass(names[i], `${g.length} 个全过`);
      else tally.skip(names[i], finished.length === 0 ? `检查停了，这一阶段的 ${total} 个还没跑到` : `检查停了，跑完的 ${finished.length} 个都过了（一共 ${total} 个）`);
      continue;
    }
    const stage = stages[i];
    const failed = g.filter((t) => t.state === "failed");
    const note = `${g.length} 个里过了 ${g.length - notPassed(g)} 个${finished.length < g.length ? `（${g.length - finished.length} 个没跑完）` : ""}`;
    let finding: Finding;
    // 讲哪个测试、怪哪一处空白：卡住的就是卡住的那个；否则是没过的里面最直接的那个（tooling/stages.ts 的 blame）
    const blamed = blame(map, id, k, hungAt === k && run.hung !== undefined ? [run.hung] : failed);
    if (hungAt === k && run.hung !== undefined) {
      finding = {
        title: `卡住了：「${testTitle(run.hung)}」跑了 ${Math.round((run.hungMs ?? 0) / 1000)} 秒还没结束，检查停了下来`,
        lines: [HANG_HINT],
        about: ruleWords(run.hung.name),
      };
    } else if (g.length === 0 || blamed === undefined) {
      finding = { title: `没找到 ${id} 第 ${k} 阶段的测试`, lines: ["检查器和测试文件对不上了：请报告这个问题。"] };
    } else finding = await explainTest(id, file, blamed.test, files.golden.includes(blamed.test.file), CHILD_GUARD_MS, k);
    // 撞上空白时，TODO 的提示已经指着 README 的小节了，不再重复；否则指向这个测试靠的那一处空白的小节，说不出是哪一处就指阶段的小节
    if (!finding.lines.some((l) => l.includes("README.md「"))) {
      const section = (blamed?.stub === undefined ? undefined : stubSection(id, blamed.stub)) ?? stage.section;
      finding.reread = rereadLine(id, section);
    }
    tally.fail(names[i], note, finding);
    const later = groups.slice(k).reduce((n, h) => n + notPassed(h), 0);
    return progress(k, Math.max(0, notPassed(g) - 1), later);
  }
  return undefined;
}

/** 要重读的那一小节，写成 `s04_tool_loop/README.md:158「5. 循环本身：runEventedToolLoop」`。 */
function rereadLine(id: string, section: string): string {
  const dir = lessonDir(id);
  const line = howItWorks(readFileSync(join(ROOT, dir, "README.md"), "utf8")).find((p) => p.title === section)?.line;
  return `${dir}/README.md${line === undefined ? "" : `:${line}`}「${section}」`;
}

/** 一处空白讲在 README 的哪一小节（和练习文件里 TODO 那句话点的是同一个，scripts/practice/stub.ts 的 Stub.section）。 */
const stubSection = (id: string, name: string): string | undefined => makePractice(id, { verify: false }).stubs.find((s) => s.name === name)?.section;

/** 检查 file（学习者的练习文件，或 --solution 时这一课自己的 code.ts）是不是 id 这一课的一个正确实现。 */
export async function runChecks(id: string, file: string, options: CheckOptions = {}): Promise<Outcome> {
  const opts = { ...DEFAULTS, ...options };
  const names = checkNames(id);
  const tally = new Tally();
  tally.expect([names.types, names.api]);
  const stop = (stage?: StageProgress): Outcome => ({ id, file, checks: tally.ordered(names.demo), first: tally.first, stage, ok: false, unmapped: tally.unmapped });
  // ③④ 的 vitest 子进程先起，类型检查和 API 在它启动、收集测试的这一两秒里做完（两核机器上一次 check 省下一秒多）；
  // 类型或 API 没过，测试的结果就不要了，子进程当场杀掉
  const files = courseTestFiles();
  const cancel = new AbortController();
  const started = runCourseTests(id, file, [...files.behaviour, ...files.golden], opts.stuckMs, cancel.signal);
  if (!checkTypesAndApi(id, file, tally, names)) {
    cancel.abort();
    await started;
    tally.expect(stagesOf(id).map((s, i) => stageName(i + 1, s)));
    return stop();
  }
  const stage = await checkCourseTests(id, file, tally, started);
  if (stage !== undefined) return stop(stage);
  // ⑤ 演示：所有阶段都过了才比
  const demo = await checkDemo(id, file, opts.demoTimeoutMs);
  if (demo !== undefined) {
    tally.fail(names.demo, "不一样", demo);
    return stop();
  }
  tally.pass(names.demo);
  return { id, file, checks: tally.ordered(names.demo), ok: true, unmapped: tally.unmapped };
}

/** 测试全名去掉开头的课号（和黄金轨迹的场景名），留下描述行为的那句话。 */
/** 测试全名（`s04 > R5：…`、`s04-max-turns > s04 复现 s04 的黄金轨迹`）去掉开头的课号，留下说行为或场景的那部分。 */
const testTitle = (t: TestRecord): string => {
  const parts = t.name.split(" > ");
  return (/^s\d\d$/.test(parts[0] ?? "") ? parts.slice(1) : parts).join(" › ");
};

/** TODO 那句话（`TODO s12: 写出 installPackage —— …`）点的空白属于 current 之后的哪个阶段；属于当前或前面的阶段就是 undefined。 */
function laterStub(id: string, todo: string, current: number): { name: string; stage: number } | undefined {
  const name = /^TODO s\d\d: (?:写出|改写|补上) (.+?)(?: 在这一课的改动)?(?: —— |$)/.exec(todo)?.[1];
  if (name === undefined) return undefined;
  const at = stagesOf(id).findIndex((s) => s.stubs.includes(name)) + 1;
  return at > current ? { name, stage: at } : undefined;
}

async function explainTest(id: string, file: string, t: TestRecord, golden: boolean, timeoutMs: number, stage: number): Promise<Finding> {
  const group = golden ? "黄金轨迹" : "行为测试";
  const about = ruleWords(t.name);
  // 撞上了还空着的地方：要紧的是哪一处空白，不是哪个测试
  const todo = findTodo(...t.errors.flatMap((e) => [e.message, e.actual, e.stack]));
  if (todo !== undefined) {
    // 空白属于后面的阶段：这一阶段的测试本该在那之前就停下（比如一个坏包本该在验包时就被拒绝），是这一阶段的代码放过了它
    const later = laterStub(id, todo, stage);
    if (later !== undefined) {
      return {
        title: `${group}没过：「${testTitle(t)}」`,
        lines: [`它一路跑到了第 ${later.stage} 阶段才写的 ${later.name}（还空着）：这一阶段的代码放过了本该在这里拦下、或者在这里就该做完的事`],
        about,
      };
    }
    return { title: `${group}跑到了还空着的地方`, lines: todoLines(todo) };
  }
  if (!golden) return { title: `行为测试没过：「${testTitle(t)}」`, lines: testLines(t.errors), about };
  const scenario = t.name.split(" > ")[0];
  const field = /in "(\w+)"/.exec(t.errors[0]?.message ?? "")?.[1] as keyof Trace | undefined;
  const step = await goldenStep(id, file, scenario, timeoutMs);
  return {
    title: `黄金轨迹没对上：场景 ${scenario}`,
    scenario: step?.about,
    lines: step === undefined ? testLines(t.errors) : traceLines(step.golden, step.actual, field),
  };
}

/** 在子进程里重跑一个场景，拿到黄金轨迹和实际轨迹（scripts/practice/golden-step.ts）；跑不出来就是 undefined。 */
async function goldenStep(id: string, file: string, scenario: string, timeoutMs: number): Promise<{ about: string; golden: Trace; actual: Trace } | undefined> {
  const env = { [LESSON_FILE_ENV]: `${id}=${resolve(file)}` };
  const { stdout, failure } = await runTsx("tooling/practice/golden-step.ts", [id, scenario], timeoutMs, env);
  if (failure !== undefined) return undefined;
  try {
    return JSON.parse(stdout) as { about: string; golden: Trace; actual: Trace };
  } catch {
    return undefined;
  }
}

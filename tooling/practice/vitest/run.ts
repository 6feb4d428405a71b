// check 的那一次 vitest：在子进程里跑这一课的课程测试（tooling/practice/course-tests.ts 挑的文件和 -t 式子），
// 环境变量 LEARN_PI_LESSON_FILE 让 importLesson 导入学习者的文件（tooling/lesson.ts）。npm run check 的 ③④ 和 npm run gen:stages 都用它。
// 结果不看 vitest 的输出，而是边跑边读 reporter.ts 和 worker-setup.ts 一行一条写下的事件。
// 学习者的代码可能卡死：有测试在跑、一段时间毫无进展，就整组杀掉子进程，报「卡住了」。
// 没有测试在跑的时候（vitest 启动、导入测试文件），卡住的不会是学习者写的函数体，而机器一忙这段可能要几十秒：
// 这时只按防卡死的上限（tooling/hang-guard.ts）算，免得把一份对的练习在忙的机器上报成「卡住了」。
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "../../course.ts";
import { HANG_GUARD_MS } from "../../hang-guard.ts";
import { LESSON_FILE_ENV } from "../../lesson.ts";
import { killGroup } from "../child-process.ts";
import { lessonTestPattern } from "../course-tests.ts";
import { EVENTS_ENV, type ErrorInfo, type TestEvent } from "./reporter.ts";

export type TestRecord = { id: string; file: string; line: number; name: string; state: string; errors: ErrorInfo[] };
/** tests：收集到的这一课的全部测试，state 是 passed、failed，或（检查中途停下时）pending。 */
export type TestRun = { tests: TestRecord[]; hung?: TestRecord; hungMs?: number; unhandled: ErrorInfo[]; crashed?: string };

const CONFIG = "tooling/practice/vitest/vitest.config.ts";

const rel = (file: string): string => relative(ROOT, file) || file;

/** vitest 的命令行入口（它的 package.json 里 bin 指的那个文件）。 */
export const vitestCli = (): string => join(dirname(createRequire(join(ROOT, "package.json")).resolve("vitest/package.json")), "vitest.mjs");

/**
 * 跑 vitest，边跑边读事件。卡死的判断是「有测试开始了没结束，silenceMs 毫秒里一条事件都没有」（没有测试在跑时
 * 是 HANG_GUARD_MS，见文件开头）：学习者的循环要是只靠 Promise 空转，worker 里的定时器永远等不到，
 * vitest 自己的超时和 worker 的消息都出不来，只能从外面看。
 * 卡住的是哪个测试：worker 里同步记下的「开始了、没结束」的那个（worker-setup.ts）。
 */
export async function runCourseTests(id: string, file: string, files: string[], silenceMs: number, signal?: AbortSignal): Promise<TestRun> {
  const dir = mkdtempSync(join(tmpdir(), "learn-pi-check-"));
  const events = join(dir, "events.ndjson");
  const child = spawn(
    process.execPath,
    [vitestCli(), "run", "--config", CONFIG, "--testTimeout", String(Math.max(1_000, silenceMs - 2_000)), "-t", lessonTestPattern(id), ...files],
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

/** reporter 一行一条写下的事件（reporter.ts），边跑边读：收集到哪些测试、哪个开始了没结束、结果、没人接的错误。 */
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

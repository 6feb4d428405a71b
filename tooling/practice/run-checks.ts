// npm run check 的检查本身：把课程已有的检查按顺序用在一个文件上，不另写一套测试。
//   ① 类型检查、② API 报告（tooling/api/extract.ts，和 npm run gen:api 同一个提取器，对比提交的 tests/api/sNN.json）
//   ③ 行为测试、④ 黄金轨迹：子进程里跑一次 vitest（vitest/run.ts），跑的就是 npm test 的那些测试文件，只留这一课的测试
//      （course-tests.ts）；结果按阶段分组，停在第一个没过的阶段（stage-results.ts）
//   ⑤ 演示：跑这个文件的 main()，和 README「试一下」的输出比（demo-check.ts）
// 前一项没过，后面的就不跑了。报告怎么写在 check-report.ts。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildFileReport } from "../api/extract.ts";
import { ROOT } from "../course.ts";
import { CHECK_NAMES, type CheckResult, checkLines } from "./check-list.ts";
import { CHILD_GUARD_MS } from "./child-process.ts";
import { courseTestFiles } from "./course-tests.ts";
import { checkDemo } from "./demo-check.ts";
import { type Finding, apiMismatch, apiMismatchLines, diagnosticLines } from "./explain.ts";
import { type StageProgress, stageResults } from "./stage-results.ts";
import { runCourseTests } from "./vitest/run.ts";

/** stage：停在哪个阶段（类型、API 没过，或者所有阶段都过了，就没有）；unmapped 见 stage-results.ts 的 StageResults。 */
export type Outcome = { id: string; file: string; checks: CheckResult[]; first?: Finding; stage?: StageProgress; ok: boolean; unmapped?: string[] };

export type CheckOptions = {
  /** 有测试在跑时，多久（毫秒）没有任何进展就算卡住。 */
  stuckMs?: number;
  /** 演示最多跑多久。 */
  demoTimeoutMs?: number;
};

/** 测试那边的 10 秒只在有测试在跑时才算（一个测试平时几十毫秒）；演示的上限见 child-process.ts。 */
const DEFAULTS = { stuckMs: 10_000, demoTimeoutMs: CHILD_GUARD_MS };

/** 一次检查的记账：每一项过了、没过、没跑，和第一个没过的那一项说了什么。 */
class Tally {
  readonly checks: CheckResult[] = [];
  first: Finding | undefined;
  /** names：报告里按这个顺序列出的检查名（check-list.ts 的 checkLines：类型、API、各个阶段、演示）。 */
  constructor(private readonly names: readonly string[]) {}
  add(results: readonly CheckResult[], finding?: Finding): void {
    this.checks.push(...results);
    this.first ??= finding;
  }
  pass(name: string, note = ""): void {
    this.add([{ name, status: "pass", note }]);
  }
  fail(name: string, note: string, finding: Finding): void {
    this.add([{ name, status: "fail", note }], finding);
  }
  /** 报告里的顺序永远是 names 的顺序；没轮到的记成「没跑」。 */
  ordered(): CheckResult[] {
    return this.names.map((name) => this.checks.find((c) => c.name === name) ?? { name, status: "skip", note: "" });
  }
}

/** ①② 类型和 API：同一个 TypeScript 程序。都过了才返回 true。 */
function checkTypesAndApi(id: string, file: string, tally: Tally): boolean {
  const source = readFileSync(file, "utf8");
  const { report, diagnostics } = buildFileReport(file);
  if (diagnostics.length > 0) {
    tally.fail(CHECK_NAMES.types, `${diagnostics.length} 处错误`, {
      title: `类型检查没过（一共 ${diagnostics.length} 处，先看第一处）`,
      lines: diagnosticLines(diagnostics[0], source),
    });
    return false;
  }
  tally.pass(CHECK_NAMES.types);
  const expected = JSON.parse(readFileSync(join(ROOT, "tests", "api", `${id}.json`), "utf8")) as Record<string, string>;
  const api = apiMismatch(expected, report);
  const apiProblems = api.missing.length + api.changed.length + api.extra.length;
  if (apiProblems > 0) {
    tally.fail(CHECK_NAMES.api, `${apiProblems} 处不同`, { title: `API 和 ${id} 不一样：测试是照这一课的签名写的，先把签名对上`, lines: apiMismatchLines(api) });
    return false;
  }
  tally.pass(CHECK_NAMES.api);
  return true;
}

/** 检查 file（学习者的练习文件，或 --solution 时这一课自己的 code.ts）是不是 id 这一课的一个正确实现。 */
export async function runChecks(id: string, file: string, options: CheckOptions = {}): Promise<Outcome> {
  const opts = { ...DEFAULTS, ...options };
  const tally = new Tally(checkLines(id).map((l) => l.name));
  let unmapped: string[] = [];
  const stop = (stage?: StageProgress): Outcome => ({ id, file, checks: tally.ordered(), first: tally.first, stage, ok: false, unmapped });
  // ③④ 的 vitest 子进程先起，类型检查和 API 在它启动、收集测试的这一两秒里做完（两核机器上一次 check 省下一秒多）；
  // 类型或 API 没过，测试的结果就不要了，子进程当场杀掉
  const files = courseTestFiles();
  const cancel = new AbortController();
  const started = runCourseTests(id, file, [...files.behaviour, ...files.golden], opts.stuckMs, cancel.signal);
  if (!checkTypesAndApi(id, file, tally)) {
    cancel.abort();
    await started;
    return stop();
  }
  const stages = await stageResults(id, file, await started);
  tally.add(stages.checks, stages.first);
  unmapped = stages.unmapped;
  if (stages.first !== undefined) return stop(stages.progress);
  // ⑤ 演示：所有阶段都过了才比
  const demo = await checkDemo(id, file, opts.demoTimeoutMs);
  if (demo !== undefined) {
    tally.fail(CHECK_NAMES.demo, "不一样", demo);
    return stop();
  }
  tally.pass(CHECK_NAMES.demo);
  return { id, file, checks: tally.ordered(), ok: true, unmapped };
}

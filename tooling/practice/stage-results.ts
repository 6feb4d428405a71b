// npm run check 的 ③④：把那一次 vitest 的结果（tooling/practice/vitest/run.ts）按阶段分组——阶段表在 stage-table.ts，
// 哪个测试归哪个阶段、靠哪几处空白在生成的 stage-tests.json（stage-lookup.ts 读）。第一个有测试没过的阶段是「当前阶段」：
// 前面的阶段过了，后面的先不看；只解释当前阶段里最直接的那个失败（stage-lookup.ts 的 blame），说成学习者的话，
// 再指出该重读 README 的哪一小节。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, lessonDir } from "../course.ts";
import type { Trace } from "../scenarios/shape.ts";
import { type CheckResult, stageName } from "./check-list.ts";
import { CHILD_GUARD_MS } from "./child-process.ts";
import { courseTestFiles } from "./course-tests.ts";
import { type Finding, HANG_HINT, findTodo, ruleWords, testLines, todoLines, traceLines } from "./explain.ts";
import { goldenStep } from "./golden-step.ts";
import { howItWorks } from "./readme.ts";
import { type StageMap, blame, readStageMap, stageOfTest, stagesOf, testKey } from "./stage-lookup.ts";
import type { Stage } from "./stage-table.ts";
import { makePractice } from "./stub.ts";
import type { TestRecord, TestRun } from "./vitest/run.ts";

/** 当前阶段（第一个没过的）里还有几个没过、后面的阶段一共几个没过：报告只讲第一个，其余只报数。 */
export type StageProgress = { current: number; of: number; stage: Stage; restHere: number; later: number };

/**
 * 各阶段的结果。checks：每个阶段一行（没轮到的阶段不在里面）；first：当前阶段第一个没过的说明；
 * progress：停在哪个阶段（都过了就没有）；unmapped：这一课跑到的测试里，stage-tests.json 还没归到哪个阶段的（npm run gen:stages 之后新加的）。
 */
export type StageResults = { checks: CheckResult[]; first?: Finding; progress?: StageProgress; unmapped: string[] };

export async function stageResults(id: string, file: string, run: TestRun): Promise<StageResults> {
  const files = courseTestFiles();
  const order = [...files.behaviour, ...files.golden];
  const stages = stagesOf(id);
  const names = stages.map((s, i) => stageName(i + 1, s));
  const checks: CheckResult[] = [];
  const progress = (current: number, restHere: number, later: number): StageProgress => ({ current, of: stages.length, stage: stages[current - 1], restHere, later });
  if (run.crashed !== undefined) {
    checks.push({ name: names[0], status: "fail", note: "没跑完" });
    return { checks, first: { title: "测试没跑完", lines: [run.crashed] }, progress: progress(1, 0, 0), unmapped: [] };
  }
  const map = readStageMap();
  const known = new Set((map[id]?.stages ?? []).flat());
  const unmapped = run.tests.map(testKey).filter((k) => !known.has(k));
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
        checks.push({ name: names[i], status: "fail", note: "有漏掉的错误" });
        return { checks, first: { title: "测试之外还抛了错误（比如定时器里）", lines: testLines(run.unhandled) }, progress: progress(i + 1, 0, 0), unmapped };
      }
      checks.push({ name: names[i], status: "pass", note: `${g.length} 个全过` });
    }
    return { checks, unmapped };
  }
  const notPassed = (g: readonly TestRecord[]): number => g.filter((t) => t.state !== "passed").length;
  for (const [i, g] of groups.entries()) {
    const k = i + 1;
    if (k > currentAt) break;
    const finished = g.filter((t) => t.state === "passed" || t.state === "failed");
    if (k < currentAt) {
      const total = Math.max(g.length, expected(i));
      if (finished.length === total) checks.push({ name: names[i], status: "pass", note: `${g.length} 个全过` });
      else checks.push({ name: names[i], status: "skip", note: finished.length === 0 ? `检查停了，这一阶段的 ${total} 个还没跑到` : `检查停了，跑完的 ${finished.length} 个都过了（一共 ${total} 个）` });
      continue;
    }
    const note = `${g.length} 个里过了 ${g.length - notPassed(g)} 个${finished.length < g.length ? `（${g.length - finished.length} 个没跑完）` : ""}`;
    checks.push({ name: names[i], status: "fail", note });
    const first = await explainStage({ id, file, run, map, golden: files.golden }, k, g);
    const later = groups.slice(k).reduce((n, h) => n + notPassed(h), 0);
    return { checks, first, progress: progress(k, Math.max(0, notPassed(g) - 1), later), unmapped };
  }
  return { checks, unmapped };
}

/** 读结果时要的几样：哪一课、学习者的文件、这次 vitest 的结果、生成的测试归属、哪些文件是黄金轨迹。 */
type Context = { id: string; file: string; run: TestRun; map: StageMap; golden: readonly string[] };

/** 第 k 阶段没过：讲哪个测试、怪哪一处空白，再指出该重读的小节。 */
async function explainStage({ id, file, run, map, golden }: Context, k: number, group: readonly TestRecord[]): Promise<Finding> {
  const hungHere = run.hung !== undefined && stageOfTest(map, id, run.hung) === k;
  const failed = group.filter((t) => t.state === "failed");
  let finding: Finding;
  // 讲哪个测试、怪哪一处空白：卡住的就是卡住的那个；否则是没过的里面最直接的那个（stage-lookup.ts 的 blame）
  const blamed = blame(map, id, k, hungHere && run.hung !== undefined ? [run.hung] : failed);
  if (hungHere && run.hung !== undefined) {
    finding = {
      title: `卡住了：「${testTitle(run.hung)}」跑了 ${Math.round((run.hungMs ?? 0) / 1000)} 秒还没结束，检查停了下来`,
      lines: [HANG_HINT],
      about: ruleWords(run.hung.name),
    };
  } else if (group.length === 0 || blamed === undefined) {
    finding = { title: `没找到 ${id} 第 ${k} 阶段的测试`, lines: ["检查器和测试文件对不上了：请报告这个问题。"] };
  } else finding = await explainTest(id, file, blamed.test, golden.includes(blamed.test.file), k);
  // 撞上空白时，TODO 的提示已经指着 README 的小节了，不再重复；否则指向这个测试靠的那一处空白的小节，说不出是哪一处就指阶段的小节
  if (!finding.lines.some((l) => l.includes("README.md「"))) {
    const section = (blamed?.stub === undefined ? undefined : stubSection(id, blamed.stub)) ?? stagesOf(id)[k - 1].section;
    finding.reread = rereadLine(id, section);
  }
  return finding;
}

/** 要重读的那一小节，写成 `s04_tool_loop/README.md:158「5. 循环本身：runEventedToolLoop」`。 */
function rereadLine(id: string, section: string): string {
  const dir = lessonDir(id);
  const line = howItWorks(readFileSync(join(ROOT, dir, "README.md"), "utf8")).find((p) => p.title === section)?.line;
  return `${dir}/README.md${line === undefined ? "" : `:${line}`}「${section}」`;
}

/** 一处空白讲在 README 的哪一小节（和练习文件里 TODO 那句话点的是同一个，stub.ts 的 Stub.section）。 */
const stubSection = (id: string, name: string): string | undefined => makePractice(id, { verify: false }).stubs.find((s) => s.name === name)?.section;

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

/** 一个没过的测试说成学习者的话：撞上了哪一处空白，行为测试期望什么，黄金轨迹第一处不同在哪一步。 */
async function explainTest(id: string, file: string, t: TestRecord, golden: boolean, stage: number): Promise<Finding> {
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
  const step = await goldenStep(id, file, scenario, CHILD_GUARD_MS);
  return {
    title: `黄金轨迹没对上：场景 ${scenario}`,
    scenario: step?.about,
    lines: step === undefined ? testLines(t.errors) : traceLines(step.golden, step.actual, field),
  };
}

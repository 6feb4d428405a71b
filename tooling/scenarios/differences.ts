// 后面的课跑前面课的场景时，允许和黄金轨迹不同的地方——全部在这一张表里，每条写明原因。
// 一条差异不是放行条：check 核对「不同」确实就是 what 说的那样，核对不过照样失败。
// 表里的差异若在任何一课、任何场景上都没用到，tests/golden.test.ts 报它过时（和 U1 清单一样）。
import { lessonNumber } from "../course.ts";
import { lessonOf } from "../features.ts";
import type { Scenario, Trace, TraceRequest } from "./shape.ts";

export type GoldenDifference = {
  id: string;
  /** 从哪一课起（含）：课号，或者一个零件（引入它的那一课，见 tooling/features.ts）。 */
  from: string;
  /** 涉及的场景：场景 id 列表，或「在某课（或某个零件）之前引入的全部场景」。 */
  scenarios: string[] | { introducedBefore: string };
  /** 轨迹里哪个字段可以不同。 */
  fields: (keyof Trace)[];
  what: string;
  reason: string;
  /**
   * 核对：undefined 表示「不同之处正是 what 所说」；否则返回一句说明哪里对不上。
   * actual 已裁成黄金文件那一课就有的字段；full 是这一课跑出的完整轨迹（比如 s10 起的事件）。
   */
  check(field: keyof Trace, golden: Trace, actual: Trace, full: Trace): string | undefined;
};

const json = (v: unknown): string => JSON.stringify(v);

/** 把值里所有字符串中的 "src/config.ts" 列表行去掉（真换行或 JSON 里转义过的 \n）。 */
const withoutConfigTs = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/(\\\\n|\\n)src\/config\.ts/g, ""));

/** PrintMode 的约定（D12），在测试里独立重写一遍：每个 done 之前的最后一条 message。 */
const finalAnswers = (events: Trace["events"]): string[] => {
  const out: string[] = [];
  let last: string | undefined;
  for (const e of events ?? []) {
    if (e.type === "message") last = e.content;
    else if (last !== undefined) {
      out.push(last);
      last = undefined;
    }
  }
  return out;
};

const turnStarts = (requests: TraceRequest[]): boolean[] => requests.map((r) => /^user: /.test(r.messages.at(-1) ?? ""));

export const GOLDEN_DIFFERENCES: GoldenDifference[] = [
  {
    id: "output-via-mode",
    from: "modes",
    scenarios: { introducedBefore: "modes" },
    fields: ["output"],
    what: "core 不再逐条写 `assistant: …` / `  → 调用` / `  ← 结果`；默认的 PrintMode 每轮只写一行最终回答",
    reason: "D12：s10 起 core 把一轮的事件交给 agent.mode.render，Output 只由运行模式写",
    check(_field, _golden, _actual, full) {
      const expected = finalAnswers(full.events);
      if (json(full.output) !== json(expected)) return `output ${json(full.output)} is not the last message before each done ${json(expected)}`;
      const turns = full.steps.filter((s) => /^(turn|loop) /.test(s)).length;
      if (full.output.length !== turns) return `${full.output.length} output lines for ${turns} turns`;
      return undefined;
    },
  },
  {
    id: "demo-files-config",
    from: "s05",
    scenarios: ["s04-demo"],
    fields: ["messages", "requests", "output"],
    what: "ls 的结果多列出一个 src/config.ts（随后的请求和输出行也跟着多这一项）",
    reason: "s05 往演示项目 DEMO_FILES 里加了 src/config.ts，给权限闸的「密钥打码」演示用；工具和循环的行为没变",
    check(field, golden, actual) {
      const a = withoutConfigTs(actual[field]);
      if (json(a) !== json(golden[field])) return `${field} differs by more than the src/config.ts listing`;
      if (json(actual[field]) === json(a)) return `${field} does not list src/config.ts`;
      return undefined;
    },
  },
  {
    id: "snapshot-tools",
    from: "snapshot",
    scenarios: ["s04-mid-turn-register"],
    fields: ["requests"],
    what: "一轮之内新登记的工具不再出现在这一轮后面的请求里，下一轮开头才出现",
    reason: "D20：s06 起每轮开头拍快照（对齐 Pi 的 AgentContext），一轮之内以快照为准；s04–s05 每次请求现取 registry",
    check(_field, golden, actual) {
      if (actual.requests.length !== golden.requests.length) return "a different number of requests";
      const starts = turnStarts(golden.requests);
      let narrower = false;
      for (const [i, g] of golden.requests.entries()) {
        const a = actual.requests[i];
        if (json(a.messages) !== json(g.messages)) return `request ${i}: messages differ`;
        const gTools = g.tools ?? [];
        const aTools = a.tools ?? [];
        if (starts[i] && json(aTools) !== json(gTools)) return `request ${i} starts a turn, but its tools differ`;
        if (!aTools.every((t) => gTools.includes(t))) return `request ${i}: tools ${json(aTools)} not within ${json(gTools)}`;
        if (aTools.length < gTools.length) narrower = true;
      }
      return narrower ? undefined : "no request within a turn lost a tool registered mid-turn";
    },
  },
];

export const goldenDifferenceApplies = (d: GoldenDifference, scenario: Scenario, lesson: string): boolean =>
  lessonNumber(lesson) >= lessonNumber(lessonOf(d.from)) &&
  (Array.isArray(d.scenarios) ? d.scenarios.includes(scenario.id) : lessonNumber(scenario.since) < lessonNumber(lessonOf(d.scenarios.introducedBefore)));
